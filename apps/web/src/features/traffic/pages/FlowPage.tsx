import type { FlowNodeRow, FlowUserRow } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Form } from "antd";
import type { Dayjs } from "dayjs";
import { useEffect } from "react";
import { Link } from "react-router";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter } from "@/components/SearchFields";
import { PagedTable } from "@/components/table/PagedTable";
import { NodeFilterField } from "@/features/nodes/components/NodeFilterField";
import { ALL, adminNodeListQuery } from "@/features/nodes/nodes.api";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { ADMIN_BASE } from "@/lib/access";
import { formatBytes } from "@/lib/format";
import { DateRangeItem, datesToRange, rangeToDates } from "../components/DateRangeField";
import { inOutColumns, TrafficSummary } from "../components/TrafficSummary";
import { flowQuery } from "../traffic.api";

const FILTERS = { start_date: "text", end_date: "text", node_id: "int", uid: "int" } as const;

interface SearchForm {
  dates?: [Dayjs, Dayjs] | null;
  node_id?: number;
  uid?: number | null;
}

/** 合计 of a row's in and out. */
const totalColumn = <T extends { traffic_in: number; traffic_out: number }>(): ResponsiveColumns<T>[number] => ({
  title: "合计",
  key: "total",
  width: 130,
  align: "right",
  render: (_: unknown, r) => formatBytes(r.traffic_in + r.traffic_out),
});

const nodeColumns: ResponsiveColumns<FlowNodeRow> = [
  { title: "节点", role: "title", dataIndex: "node_name" },
  ...inOutColumns<FlowNodeRow>(160),
  totalColumn<FlowNodeRow>(),
];

const nodeName = (n: FlowNodeRow) => n.node_name;

const userColumns: ResponsiveColumns<FlowUserRow> = [
  {
    title: "用户",
    role: "title",
    dataIndex: "phone",
    render: (phone: string, r) => <Link to={`${ADMIN_BASE}/usermgr/list/${r.uid}`}>{phone || `UID ${r.uid}`}</Link>,
  },
  { title: "UID", priority: 4, dataIndex: "uid", width: 90 },
  ...inOutColumns<FlowUserRow>(160),
  totalColumn<FlowUserRow>(),
];

/** /admin/flow: traffic by day, by node and by user over a range (default: the last 7 days). */
export function FlowPage() {
  const [form] = Form.useForm<SearchForm>();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS);
  const { data, isFetching } = useQuery(flowQuery(filters));
  const nodes = useQuery(adminNodeListQuery(ALL));

  useEffect(() => {
    form.setFieldsValue({
      dates: datesToRange(filters.start_date, filters.end_date),
      node_id: filters.node_id,
      uid: filters.uid ?? null,
    });
  }, [form, filters.start_date, filters.end_date, filters.node_id, filters.uid]);

  return (
    <PageContainer title="流量统计" description={data ? `${data.start_date} 至 ${data.end_date}` : undefined}>
      <SearchCard<SearchForm>
        form={form}
        onFinish={(v) => search({ ...rangeToDates(v.dates), node_id: v.node_id, uid: v.uid ?? undefined })}
        onReset={() => {
          form.resetFields();
          reset();
        }}
      >
        <DateRangeItem />
        <NodeFilterField nodes={nodes.data?.list} />
        <IdFilter name="uid" label="UID" width={110} />
      </SearchCard>
      <TrafficSummary
        totals={data && { in: data.total_in, out: data.total_out }}
        days={data?.days ?? []}
        breakdown={{
          title: "节点流量",
          label: "各节点流量",
          rows: data?.nodes,
          nameOf: nodeName,
          rowKey: "node_id",
          columns: nodeColumns,
          loading: isFetching && !data,
        }}
      />
      <Card title="用户流量排行">
        <PagedTable<FlowUserRow>
          rowKey="uid"
          columns={userColumns}
          query={{ data: data?.users, isFetching }}
          pagination={pagination}
        />
      </Card>
    </PageContainer>
  );
}
