import type { LoginLog } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { formatTime } from "@/lib/format";
import { loginListQuery } from "../account.api";

export const loginLogColumns: TableColumnsType<LoginLog> = [
  { title: "登录时间", dataIndex: "created_at", width: 190, render: (v: string) => formatTime(v) },
  { title: "IP", dataIndex: "ip", width: 160 },
  { title: "设备", dataIndex: "user_agent", ellipsis: true },
];

/** The user's own sign-in history, paged on the server. */
export function LoginHistoryCard() {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const { data, isFetching } = useQuery(loginListQuery(page, size));
  return (
    <Card title="登录记录">
      <Table<LoginLog>
        rowKey="id"
        size="middle"
        columns={loginLogColumns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 640 }}
        pagination={{
          current: page,
          pageSize: size,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (p, s) => {
            setPage(s === size ? p : 1);
            setSize(s);
          },
        }}
      />
    </Card>
  );
}
