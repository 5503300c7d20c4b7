import type { WebhookDeliveryStatus, WebhookDeliveryView, WebhookView } from "@burrow/contract";
import { WebhookEventLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Tag, Typography } from "antd";
import { useState } from "react";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { deliveriesQuery, redeliverWebhook, webhookKeys } from "../webhooks.api";

const STATUS: Record<WebhookDeliveryStatus, { text: string; color: string }> = {
  pending: { text: "等待重试", color: "processing" },
  success: { text: "成功", color: "success" },
  failed: { text: "失败", color: "error" },
  dropped: { text: "未发送", color: "default" },
};

const eventName = (type: string) =>
  type === "webhook.test" ? "测试事件" : ((WebhookEventLabel as Record<string, string>)[type] ?? type);

/** One endpoint's delivery log with 重新投递 per row. */
export function DeliveryLogCard({ hook }: { hook: WebhookView }) {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const { data, isFetching } = useQuery(deliveriesQuery(hook.id, page));
  const redeliver = useMutation({
    mutationFn: (did: number) => redeliverWebhook(hook.id, did),
    onSuccess: (d) => {
      if (d.status === "success") feedback.success(`重新投递成功（HTTP ${d.response_code}）`);
      else feedback.warning(`重新投递失败：${d.error ?? "未知错误"}`);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });

  const columns: ResponsiveColumns<WebhookDeliveryView> = [
    {
      title: "事件",
      key: "event",
      role: "title",
      width: 180,
      render: (_, d) => (
        <>
          <div>{eventName(d.event_type)}</div>
          <Typography.Text type="secondary" copyable={{ text: d.event_id }}>
            {d.event_id}
          </Typography.Text>
        </>
      ),
    },
    {
      title: "状态",
      key: "status",
      role: "status",
      width: 90,
      render: (_, d) => <Tag color={STATUS[d.status].color}>{STATUS[d.status].text}</Tag>,
    },
    {
      title: "响应",
      key: "response",
      priority: 1,
      width: 240,
      render: (_, d) => (
        <>
          <div>
            {d.response_code === null ? "无响应" : `HTTP ${d.response_code}`}
            {d.duration_ms === null ? "" : ` · ${d.duration_ms} ms`} · 第 {d.attempts} 次
          </div>
          {d.error ? <Typography.Text type="danger">{d.error}</Typography.Text> : null}
          {d.response_excerpt ? (
            <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, expandable: true }}>
              {d.response_excerpt}
            </Typography.Paragraph>
          ) : null}
        </>
      ),
    },
    {
      title: "时间",
      key: "time",
      priority: 2,
      width: 170,
      render: (_, d) => (
        <>
          <div>{formatTime(d.last_attempt_at ?? d.created_at)}</div>
          {d.next_at ? <Typography.Text type="secondary">下次重试 {formatTime(d.next_at)}</Typography.Text> : null}
          {d.redelivery_of ? <Typography.Text type="secondary">重新投递 #{d.redelivery_of}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: "操作",
      key: "actions",
      role: "action",
      width: 100,
      render: (_, d) => (
        <Button
          size="small"
          loading={redeliver.isPending && redeliver.variables === d.id}
          onClick={() => redeliver.mutate(d.id)}
        >
          重新投递
        </Button>
      ),
    },
  ];

  return (
    <Card title={`投递记录：${hook.description || hook.url}`} data-testid="webhook-deliveries">
      <ResponsiveTable<WebhookDeliveryView>
        rowKey="id"
        size="small"
        loading={isFetching && !data}
        columns={columns}
        dataSource={data?.list ?? []}
        pagination={{ current: page, pageSize: 10, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: "还没有投递记录" }}
      />
    </Card>
  );
}
