import { type CreatedWebhook, CreateWebhookBody, WebhookEventLabel, WebhookEventTypes } from "@burrow/contract";
import { Checkbox, Form, Input } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { ShownOnceModal } from "@/components/ShownOnceModal";
import { valueOptions } from "@/lib/options";
import { schemaRule } from "@/lib/rules";
import { createWebhook } from "../webhooks.api";

interface CreateValues {
  url: string;
  description: string;
  events: CreateWebhookBody["events"];
}

const EVENT_OPTIONS = valueOptions(WebhookEventTypes, WebhookEventLabel);

/** 添加 Webhook, then its signing secret shown this once. */
export function CreateWebhookModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  /** after the endpoint is created (before its secret is dismissed) */
  onCreated: (hook: CreatedWebhook) => Promise<unknown>;
}) {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <>
      <FormModal<CreateValues>
        open={open}
        title="添加 Webhook"
        okText="添加"
        initialValues={{ events: ["tunnel.offline", "tunnel.online"], description: "" }}
        onClose={onClose}
        onSubmit={async (v) => {
          const hook = await createWebhook({ url: v.url, description: v.description ?? "", events: v.events });
          setCreated(hook);
          await onCreated(hook);
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
    </>
  );
}
