import { type AdminDeletionRow, DeletionStatus, DeletionStatusLabel, fenToYuan } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Form, Tag } from "antd";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter } from "@/components/SearchFields";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { formatTime } from "@/lib/format";
import { valueOptions } from "@/lib/options";
import { adminDeletionsQuery } from "../leaving.api";

const FILTERS = { status: "text" } as const;
const STATUSES = Object.values(DeletionStatus);
const STATUS_OPTIONS = valueOptions(STATUSES, DeletionStatusLabel);
const STATUS_COLOR: Record<DeletionStatus, string> = { pending: "warning", cancelled: "default", done: "success" };

/**
 * /admin/leaving: customers' account deletions, pending first (uid, asked at, executes at), then
 * cancelled and done ones. Read only: a deletion is the customer's to cancel (docs/leaving.md).
 */
export function DeletionListPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const status = STATUSES.find((s) => s === filters.status);
  const { data, isFetching } = useQuery(adminDeletionsQuery({ page: filters.page, size: filters.size, status }));
  const columns: ResponsiveColumns<AdminDeletionRow> = [
    { title: "UID", role: "title", dataIndex: "uid", width: 100 },
    statusColumn("status", 100, (s: DeletionStatus) => <Tag color={STATUS_COLOR[s]}>{DeletionStatusLabel[s]}</Tag>),
    timeColumn("申请时间", "requested_at", { width: 170 }),
    timeColumn("执行时间", "executes_at", { width: 170 }),
    {
      title: "撤销 / 删除于",
      priority: 2,
      key: "ended",
      width: 170,
      render: (_, r) => formatTime(r.erased_at ?? r.cancelled_at),
    },
    {
      title: "放弃金额",
      priority: 3,
      dataIndex: "forfeit_fen",
      width: 110,
      align: "right",
      render: (v: number) => `¥${fenToYuan(v)}`,
    },
  ];
  return (
    <PageContainer title="账号注销">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="status" label="状态" options={STATUS_OPTIONS} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} rowKey="id" />
    </PageContainer>
  );
}
