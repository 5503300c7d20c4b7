import { Button, Card, Form, Input, Space, type UploadFile } from "antd";
import type { ReactNode } from "react";
import { fieldRules } from "@/lib/rules";
import { AttachmentField, attachmentIds } from "./AttachmentField";

export interface ReplyValues {
  content: string;
  attachments: number[];
}

export interface ReplyBoxProps {
  /** the buttons that send, each given the values; the first is the form's submit */
  actions: { key: string; label: string; primary?: boolean; onSend: (v: ReplyValues) => Promise<unknown> }[];
  extra?: ReactNode;
  pending: boolean;
}

/** A reply: text and up to three images, sent by one of several buttons; cleared once sent. */
export function ReplyBox({ actions, extra, pending }: ReplyBoxProps) {
  const [form] = Form.useForm<{ content: string; attachments?: UploadFile[] }>();
  const send = async (onSend: ReplyBoxProps["actions"][number]["onSend"]) => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      await onSend({ content: v.content.trim(), attachments: attachmentIds(v.attachments) });
      form.resetFields();
    } catch {
      // The mutation reported it.
    }
  };
  return (
    <Card title="回复" size="small">
      <Form form={form} layout="vertical">
        <Form.Item name="content" label="内容" rules={fieldRules("内容", { required: true, length: { max: 5000 } })}>
          <Input.TextArea rows={4} maxLength={5000} showCount />
        </Form.Item>
        <Form.Item name="attachments" label="图片">
          <AttachmentField />
        </Form.Item>
        <Space wrap>
          {actions.map((a) => (
            <Button
              key={a.key}
              type={a.primary ? "primary" : "default"}
              loading={pending}
              onClick={() => send(a.onSend)}
            >
              {a.label}
            </Button>
          ))}
          {extra}
        </Space>
      </Form>
    </Card>
  );
}
