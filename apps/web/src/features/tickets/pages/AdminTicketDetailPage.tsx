import { type AdminTicketDetail, TunnelStatus } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Descriptions, Popconfirm, Row, Space } from "antd";
import { useParams } from "react-router";
import { TunnelStatusTag } from "@/features/tunnels/components/TunnelTags";
import { ADMIN_BASE } from "@/lib/access";
import { feedback } from "@/lib/feedback";
import { formatTime, phoneText } from "@/lib/format";
import { CustomerContextCard } from "../components/CustomerContextCard";
import { ReplyBox, type ReplyValues } from "../components/ReplyBox";
import { TicketDetailFrame } from "../components/TicketDetailFrame";
import { TicketCategoryTag, TicketStatusTag } from "../components/TicketTags";
import { TicketThread } from "../components/TicketThread";
import { adminTicketQuery, staffClose, staffReply, staffUnlock, ticketsKeys } from "../tickets.api";

/** The appealed tunnel and the unlock action (the tunnels module audits it and frp allows it again). */
function AppealCard({
  ticket,
  onUnlock,
  pending,
}: {
  ticket: AdminTicketDetail;
  onUnlock: () => void;
  pending: boolean;
}) {
  const tun = ticket.tunnel;
  if (!tun) return null;
  const locked = tun.status === TunnelStatus.Locked;
  return (
    <Card
      size="small"
      title="申诉的隧道"
      extra={
        locked ? (
          <Popconfirm
            title={`解锁隧道「${tun.tun_name}」？`}
            description="解锁后客户端可以重新连接，工单随之结束。"
            okText="解锁"
            cancelText="取消"
            onConfirm={onUnlock}
          >
            <Button type="primary" danger loading={pending}>
              解锁隧道
            </Button>
          </Popconfirm>
        ) : null
      }
    >
      <Descriptions column={{ xs: 1, sm: 2 }} size="small">
        <Descriptions.Item label="隧道">
          #{tun.tun_id} {tun.tun_name}
        </Descriptions.Item>
        <Descriptions.Item label="状态">
          <TunnelStatusTag status={tun.status} enabled={tun.enabled} bannedReason={tun.banned_reason} />
        </Descriptions.Item>
        <Descriptions.Item label="锁定原因">{tun.banned_reason || "—"}</Descriptions.Item>
        <Descriptions.Item label="节点">{tun.node_name}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** /admin/mgr/ticket/{ticketID}: the thread with the customer's context; reply, ask for more, end, unlock. */
export function AdminTicketDetailPage() {
  const id = Number(useParams().ticketID);
  const queryClient = useQueryClient();
  const { data: ticket, isLoading, isError } = useQuery({ ...adminTicketQuery(id), enabled: id > 0 });
  const done = async (text: string) => {
    feedback.success(text);
    await queryClient.invalidateQueries({ queryKey: ticketsKeys.admin() });
  };
  const reply = useMutation({
    mutationFn: (v: ReplyValues & { status: 1 | 2 | 3 }) => staffReply(id, v),
    onSuccess: () => done("已回复"),
  });
  const close = useMutation({ mutationFn: () => staffClose(id), onSuccess: () => done("工单已结束") });
  const unlock = useMutation({ mutationFn: () => staffUnlock(id), onSuccess: () => done("隧道已解锁") });
  return (
    <TicketDetailFrame
      ticket={ticket}
      isLoading={isLoading}
      isError={isError}
      back={{ to: `${ADMIN_BASE}/mgr/ticket`, label: "返回队列" }}
      closing={close.isPending}
      onClose={() => close.mutateAsync()}
    >
      {(ticket, ended) => (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={16}>
            <Space orientation="vertical" size={16} style={{ width: "100%" }}>
              <Card size="small">
                <Descriptions column={{ xs: 1, sm: 2, xl: 4 }} size="small">
                  <Descriptions.Item label="状态">
                    <TicketStatusTag status={ticket.status} staff />
                  </Descriptions.Item>
                  <Descriptions.Item label="分类">
                    <TicketCategoryTag category={ticket.category} />
                  </Descriptions.Item>
                  <Descriptions.Item label="用户">{phoneText(ticket.phone)}</Descriptions.Item>
                  <Descriptions.Item label="创建时间">{formatTime(ticket.created_at)}</Descriptions.Item>
                </Descriptions>
              </Card>
              <AppealCard
                ticket={ticket}
                pending={unlock.isPending}
                onUnlock={() => unlock.mutateAsync().catch(() => undefined)}
              />
              <TicketThread messages={ticket.messages} staffView />
              {ended ? (
                <Alert type="info" showIcon title="工单已结束" />
              ) : (
                <ReplyBox
                  pending={reply.isPending}
                  actions={[
                    {
                      key: "ask",
                      label: "回复并请用户补充",
                      primary: true,
                      onSend: (v) => reply.mutateAsync({ ...v, status: 3 }),
                    },
                    { key: "reply", label: "仅回复", onSend: (v) => reply.mutateAsync({ ...v, status: 2 }) },
                    { key: "end", label: "回复并结束", onSend: (v) => reply.mutateAsync({ ...v, status: 1 }) },
                  ]}
                />
              )}
            </Space>
          </Col>
          <Col xs={24} xl={8}>
            <CustomerContextCard customer={ticket.customer} />
          </Col>
        </Row>
      )}
    </TicketDetailFrame>
  );
}
