import {
  type CreatedWebhook,
  CreateWebhookBody,
  MAX_WEBHOOK_ENDPOINTS,
  WebhookEventLabel,
  WebhookEventTypes,
  type WebhookView,
} from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Form, Input, Popconfirm, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { ShownOnceModal } from "@/components/ShownOnceModal";
import { feedback } from "@/lib/feedback";
import { schemaRule } from "@/lib/rules";
import { DeliveryLogCard } from "../components/DeliveryLogCard";
import {
  createWebhook,
  deleteWebhook,
  sendTestWebhook,
  updateWebhook,
  webhookKeys,
  webhooksQuery,
} from "../webhooks.api";

interface CreateValues {
  url: string;
  description: string;
  events: CreateWebhookBody["events"];
}

const EVENT_OPTIONS = WebhookEventTypes.map((e) => ({ value: e, label: WebhookEventLabel[e] }));

function statusTag(h: WebhookView) {
  if (h.status === "active") return <Tag color="success">正常</Tag>;
  return h.paused_reason === "failures" ? <Tag color="error">连续失败已暂停</Tag> : <Tag>已暂停</Tag>;
}

/** /account/webhooks: endpoints (add, test send, pause/resume, delete) and the chosen one's delivery log. */
export function WebhooksPage() {
  const queryClient = useQueryClient();
  const { data: hooks = [], isLoading } = useQuery(webhooksQuery());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
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

  const columns: ResponsiveColumns<WebhookView> = [
    {
      title: "地址",
      key: "url",
      role: "title",
      width: 260,
      render: (_, h) => (
        <>
          <div>
            <Typography.Text strong={h.id === shown?.id}>{h.url}</Typography.Text>
          </div>
          {h.description ? <Typography.Text type="secondary">{h.description}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: "事件",
      key: "events",
      priority: 2,
      width: 220,
      render: (_, h) => (
        <Space size={[4, 4]} wrap>
          {h.events.map((e) => (
            <Tag key={e}>{WebhookEventLabel[e]}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: "状态",
      key: "status",
      role: "status",
      width: 120,
      render: (_, h) => (
        <>
          {statusTag(h)}
          {h.pending ? <Typography.Text type="secondary"> 待投递 {h.pending}</Typography.Text> : null}
        </>
      ),
    },
    {
      title: "操作",
      key: "actions",
      role: "action",
      width: 250,
      render: (_, h) => (
        <Space size={4} wrap>
          <Button size="small" onClick={() => setSelected(h.id)}>
            投递记录
          </Button>
          <Button size="small" loading={test.isPending && test.variables === h.id} onClick={() => test.mutate(h.id)}>
            测试发送
          </Button>
          <Button size="small" onClick={() => act.mutate({ h, op: h.status === "paused" ? "resume" : "pause" })}>
            {h.status === "paused" ? "恢复" : "暂停"}
          </Button>
          <Popconfirm
            title="删除此 Webhook？"
            description="待投递的事件和投递记录将一并删除。"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => act.mutateAsync({ h, op: "delete" })}
          >
            <Button size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

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
      <FormModal<CreateValues>
        open={creating}
        title="添加 Webhook"
        okText="添加"
        initialValues={{ events: ["tunnel.offline", "tunnel.online"], description: "" }}
        onClose={() => setCreating(false)}
        onSubmit={async (v) => {
          const hook = await createWebhook({ url: v.url, description: v.description ?? "", events: v.events });
          setCreated(hook);
          setSelected(hook.id);
          await refresh();
        }}
      >
        <Form.Item
          name="url"
          label="接收地址"
          rules={[{ required: true, message: "请输入接收地址" }, schemaRule(CreateWebhookBody.shape.url)]}
        >
          <Input placeholder="https://example.com/burrow-webhook" maxLength={500} />
        </Form.Item>
        <Form.Item name="description" label="备注">
          <Input placeholder="如：运维告警" maxLength={60} />
        </Form.Item>
        <Form.Item
          name="events"
          label="事件"
          rules={[{ required: true, type: "array", min: 1, message: "请至少选择一个事件" }]}
        >
          <Checkbox.Group options={EVENT_OPTIONS} />
        </Form.Item>
      </FormModal>
      <ShownOnceModal
        value={created?.secret ?? null}
        title="Webhook 已添加"
        what="签名密钥"
        lost="遗失后请删除此地址并重新添加。"
        testId="webhook-secret"
        onClose={() => setCreated(null)}
      />
    </PageContainer>
  );
}
