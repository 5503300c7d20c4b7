import { MAX_WEBHOOK_ENDPOINTS, type WebhookView } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Space, Typography } from "antd";
import { useState } from "react";
import { PageContainer } from "@/components/PageContainer";
import { ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { CreateWebhookModal } from "../components/CreateWebhookModal";
import { DeliveryLogCard } from "../components/DeliveryLogCard";
import { deleteWebhook, sendTestWebhook, updateWebhook, webhookKeys, webhooksQuery } from "../webhooks.api";
import { webhookColumns } from "./WebhooksPage.columns";

/** /account/webhooks: endpoints (add, test send, pause/resume, delete) and the chosen one's delivery log. */
export function WebhooksPage() {
  const queryClient = useQueryClient();
  const { data: hooks = [], isLoading } = useQuery(webhooksQuery());
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const shown = hooks.find((h) => h.id === selected) ?? hooks[0];

  const test = useMutation({
    mutationFn: sendTestWebhook,
    onSuccess: (d, id) => {
      setSelected(id);
      if (d.status === "success") feedback.success(`测试事件已送达（HTTP ${d.response_code}）`);
      else feedback.warning(`测试事件发送失败：${d.error ?? "未知错误"}`);
      return refresh();
    },
  });
  // 暂停 / 恢复 / 删除: one mutation, its toast by the action.
  const act = useMutation({
    mutationFn: ({ h, op }: { h: WebhookView; op: "pause" | "resume" | "delete" }) =>
      op === "delete" ? deleteWebhook(h.id) : updateWebhook(h.id, { enabled: op === "resume" }),
    onSuccess: (_, { op }) => {
      feedback.success({ pause: "已暂停投递", resume: "已恢复投递", delete: "已删除" }[op]);
      return refresh();
    },
  });

  const columns = webhookColumns({
    shownId: shown?.id,
    testingId: test.isPending ? test.variables : undefined,
    onShow: setSelected,
    onTest: (id) => test.mutate(id),
    onPauseOrResume: (h) => act.mutate({ h, op: h.status === "paused" ? "resume" : "pause" }),
    onDelete: (h) => act.mutateAsync({ h, op: "delete" }),
  });

  const failing = hooks.filter((h) => h.status === "paused" && h.paused_reason === "failures");
  return (
    <PageContainer
      title="Webhook"
      description="事件发生时，Burrow 向你的 HTTPS 地址发送带签名的 JSON 请求。"
      extra={
        <Button
          type="primary"
          icon={<RiAddLine size={16} />}
          disabled={hooks.length >= MAX_WEBHOOK_ENDPOINTS}
          onClick={() => setCreating(true)}
        >
          添加地址
        </Button>
      }
    >
      <Space direction="vertical" size={16} style={{ width: "100%" }}>
        {failing.length ? (
          <Alert
            type="error"
            showIcon
            message="有 Webhook 因连续投递失败已自动暂停"
            description="请检查接收地址，用“测试发送”确认可用后点击“恢复”：暂停期间的事件会在恢复后补发。"
          />
        ) : null}
        <Card>
          <Typography.Paragraph type="secondary">
            每个请求带有 <Typography.Text code>X-Burrow-Signature</Typography.Text>（对“时间戳.请求体”的
            HMAC-SHA256），请用添加时显示的签名密钥校验；失败会按 1、2、4…分钟重试，最多 8 次。最多添加{" "}
            {MAX_WEBHOOK_ENDPOINTS} 个地址。
          </Typography.Paragraph>
          <ResponsiveTable<WebhookView>
            rowKey="id"
            size="small"
            loading={isLoading}
            columns={columns}
            dataSource={hooks}
            pagination={false}
            locale={{ emptyText: "还没有 Webhook 地址" }}
          />
        </Card>
        {shown ? <DeliveryLogCard key={shown.id} hook={shown} /> : null}
      </Space>
      <CreateWebhookModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(hook) => {
          setSelected(hook.id);
          return refresh();
        }}
      />
    </PageContainer>
  );
}
