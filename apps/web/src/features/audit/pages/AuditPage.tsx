import type { AuditRow } from "@burrow/contract";
import { RiRefreshLine, RiSearchLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Form, Space, Table, type TableColumnsType, Typography } from "antd";
import { useState } from "react";
import { PageContainer } from "@/components/PageContainer";
import { IdFilter, TextFilter } from "@/components/SearchFields";
import { formatTime } from "@/lib/format";
import { type AuditFilters, auditListQuery } from "../audit.api";

const columns: TableColumnsType<AuditRow> = [
  { title: "时间", dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
  { title: "操作人 UID", dataIndex: "operator_uid", width: 110 },
  {
    title: "操作",
    dataIndex: "action",
    width: 180,
    render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
  },
  { title: "对象", dataIndex: "target", width: 160 },
  { title: "详情", dataIndex: "detail", ellipsis: { showTitle: true } },
  { title: "IP", dataIndex: "ip", width: 140 },
];

interface SearchForm {
  operator_uid?: number | null;
  action?: string;
}

/** /admin/audit: the log of every admin write. */
export function AuditPage() {
  const [form] = Form.useForm<SearchForm>();
  const [filters, setFilters] = useState<AuditFilters>({ page: 1, size: 20 });
  const { data, isFetching } = useQuery(auditListQuery(filters));

  return (
    <PageContainer title="审计日志">
      <Card className="search-card">
        <Form
          form={form}
          layout="inline"
          onFinish={(v) =>
            setFilters({
              page: 1,
              size: filters.size,
              operator_uid: v.operator_uid ?? undefined,
              action: v.action?.trim() || undefined,
            })
          }
        >
          <IdFilter name="operator_uid" label="操作人 UID" width={160} />
          <TextFilter name="action" label="操作" max={64} placeholder="如 user.update" width={200} />
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" icon={<RiSearchLine size={16} />}>
                查询
              </Button>
              <Button
                icon={<RiRefreshLine size={16} />}
                onClick={() => {
                  form.resetFields();
                  setFilters({ page: 1, size: filters.size });
                }}
              >
                重置
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card>
        <Table<AuditRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 1000 }}
          pagination={{
            current: filters.page,
            pageSize: filters.size,
            total: data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page, size) => setFilters({ ...filters, page: size === filters.size ? page : 1, size }),
          }}
        />
      </Card>
    </PageContainer>
  );
}
