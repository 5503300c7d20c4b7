import { type TicketRow, TicketStatusUserLabel } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Badge, Card, Space, Typography } from "antd";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { StatusFilter, useStatusPaging } from "@/components/StatusFilter";
import { AddButton } from "@/components/table/AddButton";
import { PagedTable } from "@/components/table/PagedTable";
import { NewTicketModal } from "../components/NewTicketModal";
import { ticketCategoryColumn, ticketStatusColumn } from "../components/TicketTags";
import { myTicketsQuery } from "../tickets.api";

const columns: ResponsiveColumns<TicketRow> = [
  { title: "编号", priority: 4, dataIndex: "ticket_id", width: 80 },
  {
    title: "标题",
    role: "title",
    dataIndex: "title",
    ellipsis: true,
    render: (title: string, r) => (
      <Space>
        <Link to={`/help/ticket/${r.ticket_id}`}>{title}</Link>
        {r.unread ? <Badge count={r.unread} title="未读回复" /> : null}
      </Space>
    ),
  },
  ticketCategoryColumn(),
  ticketStatusColumn({ staff: false, width: 130 }),
  {
    title: "最后回复",
    priority: 2,
    dataIndex: "last_reply",
    ellipsis: true,
    render: (text: string, r) => (
      <Typography.Text type="secondary">
        {r.last_reply_staff ? "客服：" : "我："}
        {text}
      </Typography.Text>
    ),
  },
  timeColumn("更新时间", "last_reply_at", { priority: 3, width: 180 }),
];

/** /help/ticket: my tickets and the new-ticket form (?appeal=<tun_id> opens it as an appeal). */
export function TicketListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const appeal = Number(params.get("appeal")) || undefined;
  const [creating, setCreating] = useState(false);
  const { page, size, status, setStatus, pagination } = useStatusPaging();
  const tickets = useQuery(myTicketsQuery({ page, size, status }));
  const close = () => {
    setCreating(false);
    if (appeal) setParams(new URLSearchParams(), { replace: true });
  };
  return (
    <PageContainer
      title="工单"
      description="遇到问题请提交工单，客服会在这里回复你。"
      extra={<AddButton onClick={() => setCreating(true)}>新建工单</AddButton>}
    >
      <Card>
        <StatusFilter labels={TicketStatusUserLabel} value={status} onChange={setStatus} />
        <PagedTable<TicketRow>
          rowKey="ticket_id"
          size="middle"
          columns={columns}
          query={tickets}
          locale={{ emptyText: "还没有工单" }}
          pagination={pagination}
        />
      </Card>
      <NewTicketModal
        open={creating || Boolean(appeal)}
        appealTunId={appeal}
        onClose={close}
        onCreated={(id) => {
          close();
          void navigate(`/help/ticket/${id}`);
        }}
      />
    </PageContainer>
  );
}
