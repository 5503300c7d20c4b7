import type { ConnRow } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { formatTime } from "@/lib/format";
import { tunnelConnsQuery } from "../tunnels.api";

const columns: TableColumnsType<ConnRow> = [
  { title: "时间", dataIndex: "created_at", width: 190, render: (v: string) => formatTime(v) },
  { title: "访客地址", dataIndex: "remote_addr" },
  { title: "类型", dataIndex: "proxy_type", width: 100 },
];

/** The tunnel's recent visitor connections (frps NewUserConn), newest first. */
export function TunnelConnsCard({ tunId }: { tunId: number }) {
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const { data, isFetching } = useQuery(tunnelConnsQuery(tunId, page, size));
  return (
    <Card title="最近连接">
      <Table<ConnRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: 520 }}
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
