import type { UserTraffic, UserTrafficRow } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Descriptions, Form, Progress, Select } from "antd";
import type { Dayjs } from "dayjs";
import { useEffect } from "react";
import { Link } from "react-router";
import { statusColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { PagedTable } from "@/components/table/PagedTable";
import { TunnelStatusTag } from "@/features/tunnels/components/TunnelTags";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { formatBytes, formatTime } from "@/lib/format";
import { quotaPercent, sumTraffic } from "../chart-options";
import { DateRangeItem, datesToRange, rangeToDates } from "../components/DateRangeField";
import { inOutColumns, TrafficSummary } from "../components/TrafficSummary";
import { userTrafficQuery, userTrafficRowsQuery } from "../traffic.api";

const FILTERS = { start_date: "text", end_date: "text", tun_id: "int" } as const;

type TunnelTotal = UserTraffic["tunnels"][number];

const tunnelName = (t: TunnelTotal) => t.tun_name;

interface SearchForm {
  dates?: [Dayjs, Dayjs] | null;
  tun_id?: number;
}

/** The plan's traffic: used and left, with a progress bar. */
function QuotaCard({ quota }: { quota: UserTraffic["quota"] | undefined }) {
  const percent = quota ? quotaPercent(quota.used, quota.total) : 0;
  return (
    <Card title="流量额度" loading={!quota}>
      {quota ? (
        <>
          {quota.usable ? null : (
            <Alert
              className="form-alert"
              type="warning"
              showIcon
              title="流量额度已用完或套餐已失效，隧道将无法连接"
              description={
                <>
                  请 <Link to="/purchase/plan">购买套餐或流量包</Link> 后继续使用。
                </>
              }
            />
          )}
          <Progress
            percent={percent}
            status={quota.usable ? (percent >= 90 ? "exception" : "normal") : "exception"}
            aria-label="流量使用进度"
          />
          <Descriptions column={{ xs: 1, sm: 2, xl: 4 }} size="small" className="quota-facts">
            <Descriptions.Item label="当前套餐">{quota.plan_name ?? "无"}</Descriptions.Item>
            <Descriptions.Item label="总额度">{formatBytes(quota.total)}</Descriptions.Item>
            <Descriptions.Item label="已使用">{formatBytes(quota.used)}</Descriptions.Item>
            <Descriptions.Item label="剩余">{formatBytes(quota.left)}</Descriptions.Item>
            <Descriptions.Item label="到期时间">
              {quota.end_at ? formatTime(quota.end_at) : "长期有效"}
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : null}
    </Card>
  );
}

/** /traffic: the customer's traffic per day and per tunnel, and what is left of the quota. */
export function TrafficPage() {
  const [form] = Form.useForm<SearchForm>();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS);
  const query = { start_date: filters.start_date, end_date: filters.end_date, tun_id: filters.tun_id };
  const { data, isFetching } = useQuery(userTrafficQuery(query));
  // 每日明细 is paged on the server: a year of 100 tunnels is 36,600 rows.
  const rows = useQuery(userTrafficRowsQuery(filters));
  // Tunnel choices: every tunnel with traffic in the range (deleted ones included), plus the chosen one.
  const { data: all } = useQuery({
    ...userTrafficQuery({ start_date: filters.start_date, end_date: filters.end_date }),
    enabled: filters.tun_id !== undefined,
  });
  const tunnels = (filters.tun_id !== undefined ? all?.tunnels : data?.tunnels) ?? [];

  useEffect(() => {
    form.setFieldsValue({ dates: datesToRange(filters.start_date, filters.end_date), tun_id: filters.tun_id });
  }, [form, filters.start_date, filters.end_date, filters.tun_id]);

  const tunnelColumns: ResponsiveColumns<TunnelTotal> = [
    {
      title: "隧道",
      role: "title",
      dataIndex: "tun_name",
      render: (name: string, r) => (r.status === -1 ? name : <Link to={`/tun/list/${r.tun_id}`}>{name}</Link>),
    },
    statusColumn("status", 110, (s: number) => <TunnelStatusTag status={s} />),
    ...inOutColumns<TunnelTotal>(170),
  ];
  const dayColumns: ResponsiveColumns<UserTrafficRow> = [
    { title: "日期", role: "title", dataIndex: "date", width: 120 },
    {
      title: "隧道",
      priority: 2,
      dataIndex: "tun_name",
      render: (name: string | undefined, r) => name ?? `#${r.tun_id}`,
    },
    ...inOutColumns<UserTrafficRow>(170),
  ];

  return (
    <PageContainer
      title="流量统计"
      description={data ? `${data.start_date} 至 ${data.end_date}（按北京时间自然日）` : undefined}
    >
      <QuotaCard quota={data?.quota} />
      <SearchCard<SearchForm>
        form={form}
        onFinish={(v) => search({ ...rangeToDates(v.dates), tun_id: v.tun_id })}
        onReset={() => {
          form.resetFields();
          reset();
        }}
      >
        <DateRangeItem />
        <Form.Item name="tun_id" label="隧道">
          <Select
            allowClear
            placeholder="全部隧道"
            style={{ width: 180 }}
            options={tunnels.map((t) => ({ value: t.tun_id, label: t.tun_name }))}
          />
        </Form.Item>
      </SearchCard>
      <TrafficSummary
        totals={data && sumTraffic(data.days)}
        days={data?.days ?? []}
        breakdown={{
          title: "按隧道",
          label: "各隧道流量",
          rows: data?.tunnels,
          nameOf: tunnelName,
          rowKey: "tun_id",
          columns: tunnelColumns,
          loading: isFetching && !data,
        }}
      />
      <Card title="每日明细">
        <PagedTable<UserTrafficRow>
          rowKey={(r) => `${r.date}:${r.tun_id}`}
          size="middle"
          columns={dayColumns}
          query={rows}
          pagination={pagination}
        />
      </Card>
    </PageContainer>
  );
}
