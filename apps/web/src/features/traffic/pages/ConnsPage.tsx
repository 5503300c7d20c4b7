import type { ConnRow, LiveProxyRow } from "@burrow/contract";
import { RiRefreshLine } from "@remixicon/react";
import { useQuery } from "@tanstack/react-query";
import { Badge, Button, Card, Form, Grid, Table, type TableColumnsType, Typography } from "antd";
import { timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, TextFilter } from "@/components/SearchFields";
import { NodeFilterField } from "@/features/nodes/components/NodeFilterField";
import { ALL, adminNodeListQuery } from "@/features/nodes/nodes.api";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { DISPLAY_TZ, dayjs } from "@/lib/dayjs";
import { formatBytes } from "@/lib/format";
import { connOverviewQuery } from "../traffic.api";

const FILTERS = { tun_id: "int", uid: "int", node_id: "int", remote_addr: "text" } as const;

const liveStatus = (on: boolean) => <Badge status={on ? "success" : "default"} text={on ? "在线" : "离线"} />;

const liveTunnel = (row: LiveProxyRow) =>
  row.tun_id ? (
    <span>
      {row.tun_name} <Typography.Text type="secondary">#{row.tun_id}</Typography.Text>
    </span>
  ) : (
    <Typography.Text type="secondary">{row.proxy_name}</Typography.Text>
  );

// Status first; widths that fit the content area at 1366 px without sideways scrolling.
const liveColumns: TableColumnsType<LiveProxyRow> = [
  { title: "在线", dataIndex: "online", width: 80, render: liveStatus },
  { title: "隧道", key: "tunnel", width: 180, render: (_: unknown, row) => liveTunnel(row) },
  { title: "节点", dataIndex: "node_name", width: 120 },
  { title: "UID", dataIndex: "uid", width: 80, render: (v: number | null) => v ?? "-" },
  { title: "当前连接", dataIndex: "cur_conns", width: 90 },
  {
    title: "今日流量（入/出）",
    key: "today",
    width: 160,
    render: (_: unknown, row) => `${formatBytes(row.today_in)} / ${formatBytes(row.today_out)}`,
  },
  timeColumn("更新时间", "updated_at", { width: 170 }),
];

/** A phone's row: status and tunnel, then node, connections and today's traffic. */
const narrowLiveColumns: TableColumnsType<LiveProxyRow> = [
  {
    title: "代理",
    key: "row",
    render: (_: unknown, row) => (
      <div>
        <div style={{ display: "flex", justifyContent: "space-between", gap: 8 }}>
          {liveTunnel(row)}
          {liveStatus(row.online)}
        </div>
        <Typography.Text type="secondary">
          {row.node_name} · 连接 {row.cur_conns} · 今日 {formatBytes(row.today_in)} / {formatBytes(row.today_out)}
        </Typography.Text>
      </div>
    ),
  },
];

const connColumns: TableColumnsType<ConnRow> = [
  timeColumn("最近连接", "last_at", { width: 180 }),
  { title: "访客 IP", dataIndex: "remote_addr", width: 170 },
  { title: "连接数", dataIndex: "conn_count", width: 90 },
  {
    title: "隧道",
    key: "tunnel",
    width: 200,
    render: (_: unknown, row) => (
      <span>
        {row.tun_name} <Typography.Text type="secondary">#{row.tun_id}</Typography.Text>
      </span>
    ),
  },
  { title: "UID", dataIndex: "uid", width: 90 },
  { title: "节点", dataIndex: "node_name", width: 130 },
  { title: "类型", dataIndex: "proxy_type", width: 90 },
];

/** /admin/tun/conns: what is live now (connected tunnels, as their status says) and recent visitor connections. */
export function ConnsPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching, refetch, dataUpdatedAt } = useQuery(connOverviewQuery(filters));
  const nodes = useQuery(adminNodeListQuery(ALL));
  const narrow = !Grid.useBreakpoint().md;

  return (
    <PageContainer
      title="连接管理"
      description={`每 15 秒自动刷新 · 最近刷新 ${dataUpdatedAt ? dayjs(dataUpdatedAt).tz(DISPLAY_TZ).format("HH:mm:ss") : "-"}`}
      extra={
        <Button icon={<RiRefreshLine size={16} />} loading={isFetching} onClick={() => void refetch()}>
          刷新
        </Button>
      }
    >
      <Card title="当前活跃代理">
        <Table<LiveProxyRow>
          rowKey={(r) => `${r.node_id}:${r.proxy_name}`}
          size="middle"
          columns={narrow ? narrowLiveColumns : liveColumns}
          showHeader={!narrow}
          dataSource={data?.live}
          loading={isFetching && !data}
          scroll={narrow ? undefined : { x: 880 }}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
        />
      </Card>
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <IdFilter name="tun_id" label="隧道 ID" width={110} />
        <IdFilter name="uid" label="UID" width={110} />
        <NodeFilterField nodes={nodes.data?.list} />
        <TextFilter name="remote_addr" label="访客地址" max={60} placeholder="支持部分地址" />
      </SearchCard>
      <Card title="最近连接">
        <Table<ConnRow>
          rowKey="id"
          columns={connColumns}
          dataSource={data?.list}
          loading={isFetching && !data}
          scroll={{ x: 880 }}
          pagination={pagination(data?.total)}
        />
      </Card>
    </PageContainer>
  );
}
