import { type PlanLimitsInfo, PlanPeriodLabel, type SubscriptionView } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Segmented, Space } from "antd";
import { Link, useNavigate } from "react-router";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { PLAN_KIND_OPTIONS, PlanName } from "@/components/StoreTags";
import { PagedTable } from "@/components/table/PagedTable";
import { AutoRenewSwitch } from "@/features/autopay/components/AutoRenewSwitch";
import { TopupRuleCard } from "@/features/autopay/components/TopupRuleCard";
import { bandwidthText } from "@/features/store/pricing";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { formatTime } from "@/lib/format";
import { FreeTrafficNote, SubscriptionState } from "../components/ReplacedNote";
import { TrafficBar } from "../components/TrafficBar";
import { subscriptionsQuery } from "../subscriptions.api";

const columns: ResponsiveColumns<SubscriptionView> = [
  {
    title: "套餐",
    role: "title",
    dataIndex: "plan_name",
    // The period rides with the name: a column of its own was the first folded away at desktop widths.
    render: (name: string, row) => (
      <PlanName
        name={name}
        kind={row.kind}
        free={row.free}
        period={row.period ? PlanPeriodLabel[row.period] : undefined}
      />
    ),
  },
  statusColumn("status", 100, (_: number, row) => <SubscriptionState row={row} />),
  {
    title: "流量",
    priority: 2,
    key: "traffic",
    width: 300,
    render: (_: unknown, row) => (
      <div>
        <TrafficBar used={row.traffic_used} quota={row.traffic_quota} left={row.traffic_left} />
        <FreeTrafficNote row={row} />
      </div>
    ),
  },
  timeColumn("开始时间", "start_at", { priority: 4, width: 180 }),
  {
    title: "到期时间",
    priority: 2,
    dataIndex: "end_at",
    width: 180,
    render: (v: string | null) => (v ? formatTime(v) : "永久有效"),
  },
  {
    title: "操作",
    key: "actions",
    width: 170,
    render: (_: unknown, row) =>
      row.renewable && row.trade_id ? (
        <Space size={8} wrap>
          <Link to={`/epay/plan/${row.trade_id}`} aria-label={`续费 ${row.plan_name}`}>
            续费
          </Link>
          {/* Paid plans bought by an order, while live: renewed from the balance a day before the end. */}
          <span>
            自动续费 <AutoRenewSwitch row={row} />
          </span>
        </Space>
      ) : (
        "-"
      ),
  },
];

/** What the customer may use now: the limits frp enforces. */
function LimitsCard({ limits }: { limits: PlanLimitsInfo }) {
  return (
    <Card title="当前可用额度">
      {!limits.usable ? (
        <Alert type="warning" showIcon title={limits.reason || "当前套餐不可用"} className="limits-alert" />
      ) : null}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, xl: 4 }}
        items={[
          { key: "plan", label: "当前套餐", children: limits.plan_name },
          { key: "bandwidth", label: "带宽", children: bandwidthText(limits.bandwidth) },
          { key: "tunnels", label: "隧道数", children: `${limits.tunnel_limit} 个` },
          { key: "ports", label: "单隧道端口", children: `${limits.tunnel_peer_port_limit} 个` },
          { key: "end", label: "到期时间", children: limits.end_at ? formatTime(limits.end_at) : "永久有效" },
          {
            key: "traffic",
            label: "流量",
            span: { xs: 1, sm: 2, xl: 3 },
            children: (
              <TrafficBar
                used={limits.traffic_used}
                quota={limits.traffic_quota}
                left={Math.max(0, limits.traffic_quota - limits.traffic_used)}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}

const kindOptions = [{ value: 0, label: "全部" }, ...PLAN_KIND_OPTIONS];

/** /epay/plan: the customer's plans and traffic packs, their traffic and expiry; renewals. */
export function MyPlansPage() {
  const navigate = useNavigate();
  const { filters, search, pagination } = useUrlFilters({ kind: "int" });
  const { data, isFetching } = useQuery(subscriptionsQuery(filters));

  return (
    <PageContainer
      title="我的套餐"
      extra={
        <Space>
          <Button type="primary" onClick={() => navigate("/purchase/plan")}>
            购买套餐
          </Button>
          <Button onClick={() => navigate("/purchase/plan?type=3")}>购买流量包</Button>
        </Space>
      }
    >
      {data?.limits ? <LimitsCard limits={data.limits} /> : null}
      <Card
        title="套餐与流量包"
        extra={
          <Segmented
            value={filters.kind ?? 0}
            options={kindOptions}
            onChange={(v) => search({ kind: v === 0 ? undefined : Number(v) })}
          />
        }
      >
        <PagedTable<SubscriptionView>
          rowKey="id"
          columns={columns}
          query={{ data, isFetching }}
          pagination={pagination}
        />
      </Card>
      <TopupRuleCard />
    </PageContainer>
  );
}
