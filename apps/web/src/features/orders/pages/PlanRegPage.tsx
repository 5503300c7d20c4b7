import { PlanPeriodLabel, type PlanRegRow, SubscriptionStatusLabel } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Form, Typography } from "antd";
import { Link } from "react-router";
import { customerColumn, statusColumn, timeColumn } from "@/components/ListColumns";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter, TextFilter } from "@/components/SearchFields";
import { PLAN_KIND_OPTIONS, PlanName, SubscriptionStatusTag } from "@/components/StoreTags";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { ADMIN_BASE } from "@/lib/access";
import { formatBytes, formatTime } from "@/lib/format";
import { labelOptions } from "@/lib/options";
import { planRegListQuery } from "../orders.api";

const filterSpec = { user_id: "int", local_trade_id: "text", kind: "int", status: "int" } as const;

const columns: ResponsiveColumns<PlanRegRow> = [
  { title: "ID", priority: 6, dataIndex: "id", width: 80 },
  customerColumn({ priority: 2, width: 170 }),
  {
    title: "套餐",
    role: "title",
    dataIndex: "plan_name",
    width: 200,
    render: (name: string, row) => <PlanName name={name} kind={row.kind} free={row.free} />,
  },
  statusColumn("status", 90, (s: number) => <SubscriptionStatusTag status={s} />),
  {
    title: "周期",
    priority: 3,
    dataIndex: "period",
    width: 80,
    render: (p: PlanRegRow["period"]) => (p ? PlanPeriodLabel[p] : "-"),
  },
  {
    title: "流量",
    priority: 3,
    key: "traffic",
    width: 200,
    render: (_: unknown, row) => `${formatBytes(row.traffic_used)} / ${formatBytes(row.traffic_quota)}`,
  },
  timeColumn("开始时间", "start_at", { priority: 4, width: 175 }),
  {
    title: "到期时间",
    priority: 3,
    dataIndex: "end_at",
    width: 175,
    render: (v: string | null) => (v ? formatTime(v) : "永久有效"),
  },
  {
    title: "开通订单",
    priority: 4,
    dataIndex: "trade_id",
    width: 220,
    render: (v: string | null) =>
      v ? (
        <Link to={`${ADMIN_BASE}/order?local_trade_id=${encodeURIComponent(v)}&trade=${encodeURIComponent(v)}`}>
          <Typography.Text code>{v}</Typography.Text>
        </Link>
      ) : (
        "-"
      ),
  },
];

/** /admin/order/reg: plan registrations (every subscription opened, by plan purchase, gift card or sign-up). */
export function PlanRegPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(filterSpec, form);
  const { data, isFetching } = useQuery(planRegListQuery(filters));

  return (
    <PageContainer title="套餐开通记录">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <IdFilter name="user_id" label="用户 UID" width={130} />
        <TextFilter name="local_trade_id" label="订单号" max={40} width={200} />
        <SelectFilter name="kind" label="类型" width={110} options={PLAN_KIND_OPTIONS} />
        <SelectFilter name="status" label="状态" width={110} options={labelOptions(SubscriptionStatusLabel)} />
      </SearchCard>
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} />
    </PageContainer>
  );
}
