import { AuthApi, type BanAppealView, ErrorCode, TicketStatus, TicketsApi } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Form, Input, Space, Spin, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ApiError, api } from "@/api/client";
import { type BanState, clearBan, readBan } from "@/lib/ban";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { AuthCard } from "../components/AuthCard";

const appealKey = ["ban-appeal"] as const;

/**
 * /appeal: a banned account's ban, its reason and its one appeal (issue 35 §11). The calls go with
 * the appeal session a sign-in to the banned account answered (lib/ban.ts), never the console's
 * token; without one the page says to sign in.
 */
export function AppealPage() {
  const navigate = useNavigate();
  const [ban, setBan] = useState<BanState | null>(() => readBan());
  const toLogin = () => {
    clearBan();
    setBan(null);
    void navigate("/login", { replace: true });
  };
  return (
    <AuthCard title="账号已被封禁" subtitle="封禁期间只能查看封禁原因和提交申诉">
      <Alert
        type="error"
        showIcon
        role="alert"
        style={{ marginBottom: 16 }}
        message={ban?.ban_reason ? `封禁原因：${ban.ban_reason}` : "账号已被封禁"}
      />
      {ban?.appeal ? (
        <AppealThread credential={ban.appeal.token} onEnded={toLogin} />
      ) : (
        <Space orientation="vertical" style={{ width: "100%" }}>
          <Typography.Paragraph>如对封禁有异议，请用该账号的手机号和密码登录后提交封禁申诉。</Typography.Paragraph>
          <Button type="primary" block onClick={toLogin}>
            登录后申诉
          </Button>
        </Space>
      )}
    </AuthCard>
  );
}

/** The appeal itself: its thread, the reply or the first message, with the appeal session. */
function AppealThread({ credential, onEnded }: { credential: string; onEnded: () => void }) {
  const queryClient = useQueryClient();
  const opts = { credential };
  const { data, error, isLoading } = useQuery({
    queryKey: appealKey,
    queryFn: ({ signal }) => api.call(TicketsApi.getUserAppeal, undefined, { ...opts, signal }),
    retry: false,
  });
  const [form] = Form.useForm<{ content: string }>();
  const done = (view: BanAppealView) => {
    queryClient.setQueryData(appealKey, view);
    form.resetFields();
  };
  const open = useMutation({
    mutationFn: (content: string) => api.call(TicketsApi.postUserAppeal, { body: { content } }, opts),
    onSuccess: (v) => {
      feedback.success("申诉已提交，请等待客服回复");
      done(v);
    },
    onError: (e) => feedback.error(e.message),
  });
  const reply = useMutation({
    mutationFn: (content: string) => api.call(TicketsApi.postUserAppealReply, { body: { content } }, opts),
    onSuccess: (v) => {
      feedback.success("已补充说明");
      done(v);
    },
    onError: (e) => feedback.error(e.message),
  });
  const signOut = async () => {
    await api.call(AuthApi.postAuthLogout, undefined, opts).catch(() => undefined);
    onEnded();
  };

  if (isLoading) return <Spin />;
  if (error) {
    // Unbanned (30003), signed out or re-banned (30005), expired: the appeal session is over.
    const ended = error instanceof ApiError && (error.isSessionInvalid || error.code === ErrorCode.AccountBanned);
    return (
      <Space orientation="vertical" style={{ width: "100%" }}>
        <Alert type="warning" showIcon message={ended ? error.message : "加载失败，请稍后再试"} />
        <Button block onClick={onEnded}>
          重新登录
        </Button>
      </Space>
    );
  }
  if (!data) return null;
  const ticket = data.ticket;
  const openTicket = ticket && ticket.status !== TicketStatus.Ended;
  return (
    <Space orientation="vertical" size={12} style={{ width: "100%" }}>
      {ticket ? (
        <Card
          size="small"
          title={`申诉 #${ticket.ticket_id}`}
          extra={
            ticket.status === TicketStatus.Ended ? (
              <Tag>已结束</Tag>
            ) : ticket.status === TicketStatus.AwaitingUser ? (
              <Tag color="orange">待你补充</Tag>
            ) : (
              <Tag color="blue">等待客服处理</Tag>
            )
          }
        >
          <Space orientation="vertical" style={{ width: "100%" }} data-testid="appeal-thread">
            {ticket.messages.map((m) => (
              <div key={m.id} data-testid="appeal-message">
                <Space size={8}>
                  {m.staff ? <Tag color="green">客服</Tag> : <Tag color="blue">我</Tag>}
                  <Typography.Text type="secondary">{formatTime(m.created_at)}</Typography.Text>
                </Space>
                <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: "4px 0 0" }}>
                  {m.content}
                  {m.attachments.length ? ` （${m.attachments.length} 张图片）` : ""}
                </Typography.Paragraph>
              </div>
            ))}
          </Space>
        </Card>
      ) : (
        <Empty description="还没有提交申诉" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
      {openTicket || data.can_open ? (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => (openTicket ? reply : open).mutate(v.content.trim())}
        >
          <Form.Item
            name="content"
            label={openTicket ? "补充说明" : "申诉说明"}
            rules={fieldRules("内容", { required: true, length: { max: 5000 } })}
          >
            <Input.TextArea rows={4} maxLength={5000} placeholder="请说明情况，客服会在此回复你" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={open.isPending || reply.isPending}>
            {openTicket ? "发送" : "提交申诉"}
          </Button>
        </Form>
      ) : data.next_open_at ? (
        <Alert type="info" showIcon message={`申诉已结束，${formatTime(data.next_open_at)} 后可再次申诉`} />
      ) : null}
      <Button block onClick={() => void signOut()}>
        退出
      </Button>
    </Space>
  );
}
