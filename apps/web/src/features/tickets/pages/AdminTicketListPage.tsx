import {
  type AdminTicketRow,
  TicketCategories,
  type TicketCategory,
  TicketCategoryLabel,
  TicketStatusAdminLabel,
} from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Col, Form, InputNumber } from "antd";
import { Link } from "react-router";
import { linkActionColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { GridSearchCard } from "@/components/SearchCard";
import { CustomerFilterCols, SEARCH_COL, SelectFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { ADMIN_BASE } from "@/lib/access";
import { formatTime, phoneText } from "@/lib/format";
import { labelOptions, valueOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { ticketCategoryColumn, ticketStatusColumn } from "../components/TicketTags";
import { adminTicketsQuery } from "../tickets.api";

const FILTERS = { status: "int", category: "text", uid: "int", phone: "text", min_age_hours: "int" } as const;
/** How long since the last message, in the largest whole unit. */
function waited(iso: string): string {
  const min = Math.max(0, Math.floor((Date.now() - new Date(iso).getTime()) / 60_000));
  if (min < 60) return `${min} 分钟`;
  if (min < 48 * 60) return `${Math.floor(min / 60)} 小时`;
  return `${Math.floor(min / 1440)} 天`;
}

const detailPath = (id: number) => `${ADMIN_BASE}/mgr/ticket/${id}`;

const columns: ResponsiveColumns<AdminTicketRow> = [
  { title: "编号", priority: 5, dataIndex: "ticket_id", width: 80 },
  {
    title: "标题",
    role: "title",
    dataIndex: "title",
    ellipsis: true,
    render: (title: string, r) => <Link to={detailPath(r.ticket_id)}>{title}</Link>,
  },
  {
    title: "用户",
    priority: 2,
    dataIndex: "phone",
    width: 170,
    render: (phone: string, r) => `${phoneText(phone)}（${r.uid}）`,
  },
  ticketCategoryColumn(),
  ticketStatusColumn({ staff: true, width: 120 }),
  {
    title: "最后回复",
    priority: 3,
    dataIndex: "last_reply",
    ellipsis: true,
    render: (text: string, r) => `${r.last_reply_staff ? "客服" : "用户"}：${text}`,
  },
  {
    title: "等待",
    priority: 2,
    dataIndex: "last_reply_at",
    width: 190,
    render: (v: string) => `${formatTime(v)}（${waited(v)}）`,
  },
  linkActionColumn("处理", (r) => detailPath(r.ticket_id)),
];

/** /admin/mgr/ticket: the queue (awaiting staff first, longest waiting first), filters kept in the URL. */
export function AdminTicketListPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    adminTicketsQuery({ ...filters, category: filters.category as TicketCategory | undefined }),
  );
  return (
    <PageContainer title="工单管理">
      <GridSearchCard form={form} initialValues={filters} onFinish={search} onReset={reset}>
        <Col {...SEARCH_COL}>
          <SelectFilter name="status" label="状态" options={labelOptions(TicketStatusAdminLabel)} />
        </Col>
        <Col {...SEARCH_COL}>
          <SelectFilter name="category" label="分类" options={valueOptions(TicketCategories, TicketCategoryLabel)} />
        </Col>
        <CustomerFilterCols />
        <Col {...SEARCH_COL}>
          <Form.Item
            name="min_age_hours"
            label="等待超过（小时）"
            rules={fieldRules("等待时长", { integer: true, range: { min: 0, max: 8760 } })}
          >
            <InputNumber min={0} max={8760} precision={0} style={{ width: "100%" }} />
          </Form.Item>
        </Col>
      </GridSearchCard>
      <ListTableCard
        columns={columns}
        data={data}
        loading={isFetching}
        pagination={pagination}
        rowKey="ticket_id"
        size="middle"
      />
    </PageContainer>
  );
}
