import {
  type NoticeChannel,
  NoticeChannelLabel,
  NoticeEmailBody,
  NoticeEmailCodeBody,
  type NoticePrefView,
  type NoticeSettings,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Form, Input, Space, Table, Tag, Tooltip, Typography } from "antd";
import { feedback } from "@/lib/feedback";
import { schemaRule } from "@/lib/rules";
import { noticeSettingsQuery, noticesKeys, saveNoticePref, setNoticeEmail, verifyNoticeEmail } from "../notices.api";

/** Why a channel cannot be ticked for this person now, or null. */
function offReason(s: NoticeSettings, e: NoticePrefView, c: NoticeChannel): string | null {
  if (c === "site") return "站内消息始终开启";
  if (!e.allowed.includes(c)) return "短信只用于紧急通知";
  if (c === "email") return s.email.available ? null : s.email.reason;
  return s.sms.reason;
}

/** 通知设置: the notice e-mail (verified by a mailed code) and the channels of each kind of notice. */
export function NoticeSettingsCard() {
  const queryClient = useQueryClient();
  const { data: s, isLoading } = useQuery(noticeSettingsQuery());
  const put = (next: NoticeSettings) => queryClient.setQueryData(noticesKeys.settings(), next);
  const save = useMutation({
    mutationFn: saveNoticePref,
    onSuccess: (next) => {
      put(next);
      feedback.success("已保存");
    },
  });
  const [emailForm] = Form.useForm<{ email: string }>();
  const [codeForm] = Form.useForm<{ code: string }>();
  const sendCode = useMutation({
    mutationFn: setNoticeEmail,
    onSuccess: (next) => {
      put(next);
      feedback.success("验证码已发送到邮箱，10 分钟内有效");
    },
  });
  const verify = useMutation({
    mutationFn: verifyNoticeEmail,
    onSuccess: (next) => {
      put(next);
      codeForm.resetFields();
      feedback.success("通知邮箱已验证");
    },
  });

  if (!s) return <Card loading={isLoading} />;
  const toggle = (e: NoticePrefView, c: NoticeChannel, on: boolean) =>
    save.mutate({ type: e.type, channels: on ? [...e.channels, c] : e.channels.filter((x) => x !== c) });

  return (
    <Space direction="vertical" size={16} style={{ width: "100%" }}>
      <Card title="通知邮箱" size="small">
        {s.email.available ? (
          <>
            <Typography.Paragraph>
              {s.email.address ? (
                <>
                  当前：{s.email.address}{" "}
                  {s.email.verified ? <Tag color="success">已验证</Tag> : <Tag color="warning">未验证</Tag>}
                </>
              ) : (
                "尚未设置通知邮箱：设置并验证后，才能通过邮件接收通知。"
              )}
            </Typography.Paragraph>
            <Form
              form={emailForm}
              layout="inline"
              onFinish={(v) => sendCode.mutate({ email: v.email })}
              initialValues={{ email: s.email.address ?? "" }}
            >
              <Form.Item name="email" rules={[schemaRule(NoticeEmailBody.shape.email)]}>
                <Input placeholder="name@example.com" aria-label="通知邮箱" style={{ width: 240 }} />
              </Form.Item>
              <Button htmlType="submit" loading={sendCode.isPending}>
                发送验证码
              </Button>
            </Form>
            {s.email.address && !s.email.verified ? (
              <Form form={codeForm} layout="inline" style={{ marginTop: 12 }} onFinish={(v) => verify.mutate(v.code)}>
                <Form.Item name="code" rules={[schemaRule(NoticeEmailCodeBody.shape.code)]}>
                  <Input placeholder="6 位验证码" aria-label="邮箱验证码" style={{ width: 160 }} />
                </Form.Item>
                <Button type="primary" htmlType="submit" loading={verify.isPending}>
                  验证
                </Button>
              </Form>
            ) : null}
          </>
        ) : (
          <Alert type="info" showIcon message={`邮件通知不可用：${s.email.reason}`} />
        )}
      </Card>
      <Card title="通知方式" size="small">
        <Table<NoticePrefView>
          rowKey="type"
          size="small"
          pagination={false}
          dataSource={s.events}
          columns={[
            {
              title: "通知",
              key: "label",
              render: (_, e) => (
                <Space size={4}>
                  {e.label}
                  {e.urgent ? <Tag color="red">紧急</Tag> : null}
                </Space>
              ),
            },
            ...(["site", "email", "sms"] as const).map((c) => ({
              title: NoticeChannelLabel[c],
              key: c,
              width: 80,
              render: (_: unknown, e: NoticePrefView) => {
                const why = offReason(s, e, c);
                const disabled = c === "site" || (why !== null && !e.channels.includes(c));
                return (
                  <Tooltip title={why}>
                    <Checkbox
                      aria-label={`${e.label}：${NoticeChannelLabel[c]}`}
                      checked={e.channels.includes(c)}
                      disabled={disabled || save.isPending}
                      onChange={(ev) => toggle(e, c, ev.target.checked)}
                    />
                  </Tooltip>
                );
              },
            })),
          ]}
        />
      </Card>
    </Space>
  );
}
