import { TicketStatus } from "@burrow/contract";
import { Button, Popconfirm, Result, Space, Spin } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";

/**
 * The frame both sides' ticket pages share: loading, "not found", the title, the way back and the
 * confirmed 结束工单 button; the page fills in the body for the ticket it loaded.
 */
export function TicketDetailFrame<T extends { ticket_id: number; title: string; status: number }>({
  ticket,
  isLoading,
  isError,
  back,
  closeHint,
  closing,
  onClose,
  children,
}: {
  ticket: T | undefined;
  isLoading: boolean;
  isError: boolean;
  back: { to: string; label: string };
  /** what closing means for this reader, under the confirm's title */
  closeHint?: string;
  closing: boolean;
  onClose: () => Promise<unknown>;
  children: (ticket: T, ended: boolean) => ReactNode;
}) {
  const backButton = (
    <Link to={back.to}>
      <Button>{back.label}</Button>
    </Link>
  );
  if (isLoading) return <Spin />;
  if (isError || !ticket)
    return (
      <PageContainer title="工单详情" extra={backButton}>
        <Result status="404" title="工单不存在" />
      </PageContainer>
    );
  const ended = ticket.status === TicketStatus.Ended;
  return (
    <PageContainer
      title={`工单 #${ticket.ticket_id} · ${ticket.title}`}
      extra={
        <Space>
          {backButton}
          {ended ? null : (
            <Popconfirm
              title="结束这个工单？"
              description={closeHint}
              okText="结束"
              cancelText="取消"
              onConfirm={() => onClose().catch(() => undefined)}
            >
              <Button danger loading={closing}>
                结束工单
              </Button>
            </Popconfirm>
          )}
        </Space>
      }
    >
      {children(ticket, ended)}
    </PageContainer>
  );
}
