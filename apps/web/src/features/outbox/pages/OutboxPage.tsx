import { type OutboxDelivery, OutboxDeliveryStatus, OutboxDeliveryStatusLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Popconfirm, Tag, Typography } from "antd";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter } from "@/components/SearchFields";
import { PagedTable } from "@/components/table/PagedTable";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { valueOptions } from "@/lib/options";
import { outboxDeliveriesQuery, outboxKeys, retryDelivery } from "../outbox.api";

const FILTERS = { status: "text" } as const;
const STATUS_COLOR = { pending: "processing", done: "success", dead: "error" } as const;
const STATUS_OPTIONS = valueOptions(OutboxDeliveryStatus, OutboxDeliveryStatusLabel);

/**
 * /admin/outbox: what the domain-event handlers (the assistant's traffic notice, later mail and
 * webhooks) failed to do. Dead deliveries first (the default filter): the event, the handler, the
 * last error and the attempts; 重试 runs one again now (Managers, audited).
 */
export function OutboxPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  // A status from the URL that is not one of the contract's is left out (the server's default).
  const status = OutboxDeliveryStatus.find((s) => s === filters.status);
  const deliveries = useQuery(outboxDeliveriesQuery({ page: filters.page, size: filters.size, status }));
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: retryDelivery,
    onSuccess: async () => {
      feedback.success("已重新投递");
      await queryClient.invalidateQueries({ queryKey: outboxKeys.all });
    },
  });

  const columns: ResponsiveColumns<OutboxDelivery> = [
    { title: "编号", priority: 5, dataIndex: "id", width: 80 },
    {
      title: "事件",
      role: "title",
      dataIndex: "event_label",
      render: (label: string, r) => (
        <span>
          {label}
          <Typography.Text type="secondary">
            {" "}
            #{r.event_id}
            {r.uid !== null ? ` · 用户 ${r.uid}` : ""}
          </Typography.Text>
        </span>
      ),
    },
    { title: "处理方", priority: 3, dataIndex: "handler", width: 190 },
    statusColumn("status", 100, (s: OutboxDelivery["status"]) => (
      <Tag color={STATUS_COLOR[s]}>{OutboxDeliveryStatusLabel[s]}</Tag>
    )),
    { title: "尝试次数", priority: 2, dataIndex: "attempts", width: 90, align: "right" },
    {
      title: "最后错误",
      priority: 1,
      dataIndex: "last_error",
      ellipsis: true,
      render: (e: string | null) => (e ? <Typography.Text type="danger">{e}</Typography.Text> : "—"),
    },
    timeColumn("更新时间", "updated_at", { priority: 4, width: 170 }),
    {
      title: "操作",
      key: "actions",
      width: 90,
      render: (_: unknown, r) =>
        r.status === "done" ? null : (
          <Popconfirm
            title="重新投递这个事件？"
            description="处理方会再运行一次，失败后重新计算尝试次数。"
            okText="重试"
            cancelText="取消"
            onConfirm={() => retry.mutateAsync(r.id)}
          >
            <Button type="link" size="small">
              重试
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <PageContainer title="事件投递">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="status" label="状态" options={STATUS_OPTIONS} />
      </SearchCard>
      <Card>
        <PagedTable<OutboxDelivery>
          rowKey="id"
          size="middle"
          columns={columns}
          query={deliveries}
          expandable={{
            expandedRowRender: (r) => (
              <Typography.Paragraph style={{ marginBottom: 0 }}>
                <Typography.Text type="secondary">记录于 {formatTime(r.event_at)}，内容：</Typography.Text>
                <Typography.Text code>{r.payload}</Typography.Text>
                {r.last_error ? (
                  <>
                    <br />
                    <Typography.Text type="secondary">最后错误：</Typography.Text>
                    <Typography.Text type="danger">{r.last_error}</Typography.Text>
                  </>
                ) : null}
              </Typography.Paragraph>
            ),
          }}
          pagination={pagination}
        />
      </Card>
    </PageContainer>
  );
}
