import { TicketStatus } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card, Descriptions, Space } from "antd";
import { useEffect } from "react";
import { Link, useParams } from "react-router";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { ReplyBox, type ReplyValues } from "../components/ReplyBox";
import { TicketDetailFrame } from "../components/TicketDetailFrame";
import { TicketCategoryTag, TicketStatusTag } from "../components/TicketTags";
import { TicketThread } from "../components/TicketThread";
import { closeTicket, myTicketQuery, replyTicket, ticketsKeys } from "../tickets.api";

/** /help/ticket/{ticketID}: the thread, my reply, closing it. */
export function TicketDetailPage() {
  const id = Number(useParams().ticketID);
  const queryClient = useQueryClient();
  const { data: ticket, isLoading, isError, dataUpdatedAt } = useQuery({ ...myTicketQuery(id), enabled: id > 0 });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ticketsKeys.all });
  };
  // Reading the ticket marked its replies read: the badge follows.
  useEffect(() => {
    if (dataUpdatedAt) void queryClient.invalidateQueries({ queryKey: ticketsKeys.unread() });
  }, [dataUpdatedAt, queryClient]);
  const reply = useMutation({
    mutationFn: (v: ReplyValues) => replyTicket(id, v),
    onSuccess: async () => {
      feedback.success("已回复");
      await refresh();
    },
  });
  const close = useMutation({
    mutationFn: () => closeTicket(id),
    onSuccess: async () => {
      feedback.success("工单已结束");
      await refresh();
    },
  });
  return (
    <TicketDetailFrame
      ticket={ticket}
      isLoading={isLoading}
      isError={isError}
      back={{ to: "/help/ticket", label: "返回列表" }}
      closeHint="结束后不能再回复，如有新问题请新建工单。"
      closing={close.isPending}
      onClose={() => close.mutateAsync()}
    >
      {(ticket, ended) => (
        <Space orientation="vertical" size={16} style={{ width: "100%" }}>
          <Card size="small">
            <Descriptions column={{ xs: 1, sm: 2, xl: 4 }} size="small">
              <Descriptions.Item label="状态">
                <TicketStatusTag status={ticket.status} />
              </Descriptions.Item>
              <Descriptions.Item label="分类">
                <TicketCategoryTag category={ticket.category} />
              </Descriptions.Item>
              {ticket.tun_id ? (
                <Descriptions.Item label="隧道">
                  <Link to={`/tun/list/${ticket.tun_id}`}>#{ticket.tun_id}</Link>
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label="创建时间">{formatTime(ticket.created_at)}</Descriptions.Item>
            </Descriptions>
          </Card>
          {ticket.status === TicketStatus.AwaitingUser ? (
            <Alert type="warning" showIcon title="客服请你补充信息，请在下方回复。" />
          ) : null}
          <TicketThread messages={ticket.messages} />
          {ended ? (
            <Alert type="info" showIcon title="工单已结束" />
          ) : (
            <ReplyBox
              pending={reply.isPending}
              actions={[{ key: "reply", label: "发送回复", primary: true, onSend: (v) => reply.mutateAsync(v) }]}
            />
          )}
        </Space>
      )}
    </TicketDetailFrame>
  );
}
