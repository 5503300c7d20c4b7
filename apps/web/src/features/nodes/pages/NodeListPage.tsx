import { type AdminNodeRow, NodeStatus, NodeStatusLabel } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Popconfirm, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatBytes, formatTime } from "@/lib/format";
import { NodeFormModal } from "../components/NodeFormModal";
import { NodeSetupDrawer } from "../components/NodeSetupDrawer";
import { labelOptions, NodeStatusTag, ProtocolTags } from "../components/NodeTags";
import {
  ALL,
  adminNodeListQuery,
  areaListQuery,
  deleteNode,
  netTypeListQuery,
  nodesKeys,
  pollNode,
  updateNode,
} from "../nodes.api";

const FILTERS = { name: "text", area_id: "int", net_type_id: "int", status: "int" } as const;

/** /admin/node: every node with its state, load and the poller's last look; CRUD and 部署. */
export function NodeListPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(adminNodeListQuery(filters));
  const areas = useQuery(areaListQuery(ALL));
  const netTypes = useQuery(netTypeListQuery(ALL));
  const [editing, setEditing] = useState<{ row?: AdminNodeRow } | null>(null);
  const [deploying, setDeploying] = useState<AdminNodeRow | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: nodesKeys.all });
  const remove = useMutation({
    mutationFn: deleteNode,
    onSuccess: async () => {
      feedback.success("节点已删除");
      await refresh();
    },
  });
  const shelf = useMutation({
    mutationFn: (v: { node_id: number; status: 2 | -1 }) => updateNode(v),
    onSuccess: async (_data, v) => {
      feedback.success(v.status === -1 ? "节点已下架" : "节点已上架");
      await refresh();
    },
  });

  const check = useMutation({
    mutationFn: pollNode,
    onSuccess: async (r) => {
      if (r.status === NodeStatus.Online) feedback.success(`节点在线，面板上有 ${r.proxies} 个隧道`);
      else feedback.warning(`节点${NodeStatusLabel[r.status] ?? "异常"}：${r.error ?? "未知原因"}`);
      await refresh();
    },
  });

  const columns: TableColumnsType<AdminNodeRow> = [
    { title: "ID", dataIndex: "node_id", width: 70, fixed: "left" },
    {
      title: "节点",
      dataIndex: "name",
      width: 200,
      fixed: "left",
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary" copyable={{ text: row.host }}>
            {row.host}:{row.bind_port}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: "状态",
      dataIndex: "status",
      width: 100,
      render: (status: number, row) =>
        row.runtime.last_error ? (
          <Tooltip title={row.runtime.last_error}>
            <span>
              <NodeStatusTag status={status} />
            </span>
          </Tooltip>
        ) : (
          <NodeStatusTag status={status} />
        ),
    },
    { title: "地区", dataIndex: "area_name", width: 110 },
    { title: "网络类型", dataIndex: "net_type_name", width: 100 },
    { title: "等级", dataIndex: "level_name", width: 100 },
    {
      title: "协议",
      dataIndex: "protocols",
      width: 170,
      render: (p: string[]) => <ProtocolTags protocols={p} />,
    },
    {
      title: "端口范围",
      key: "ports",
      width: 120,
      render: (_: unknown, row) => `${row.port_min}-${row.port_max}`,
    },
    {
      title: "负载",
      key: "load",
      width: 170,
      render: (_: unknown, row) => (
        <Typography.Text type="secondary">
          客户端 {row.load.clients} · 隧道 {row.load.tunnels} · 连接 {row.load.cur_conns}
        </Typography.Text>
      ),
    },
    {
      title: "今日流量（入/出）",
      key: "traffic",
      width: 170,
      render: (_: unknown, row) => `${formatBytes(row.runtime.traffic_in)} / ${formatBytes(row.runtime.traffic_out)}`,
    },
    {
      title: "frps / 最后轮询",
      key: "runtime",
      width: 190,
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.runtime.version ? `v${row.runtime.version}` : "-"}</span>
          <Typography.Text type="secondary">{formatTime(row.runtime.last_poll_at)}</Typography.Text>
          {row.runtime.rollover_skew_at ? (
            <Tooltip
              title={`frps 的今日流量没有在北京时间零点清零（${formatTime(row.runtime.rollover_skew_at)}），其时区或时钟与北京时间不一致。该节点按计数器增量计费；请把 frps 所在机器的时区设为 Asia/Shanghai 并校准时钟。`}
            >
              <Tag color="warning" data-testid="rollover-skew">
                时区异常
              </Tag>
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: canWrite ? 270 : 80,
      fixed: "right",
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setDeploying(row)}>
            部署
          </Button>
          {canWrite ? (
            <>
              <Button type="link" size="small" onClick={() => setEditing({ row })}>
                编辑
              </Button>
              {row.status !== NodeStatus.OffShelf ? (
                <Button
                  type="link"
                  size="small"
                  loading={check.isPending && check.variables === row.node_id}
                  onClick={() => check.mutate(row.node_id)}
                >
                  检测
                </Button>
              ) : null}
              <Popconfirm
                title={row.status === NodeStatus.OffShelf ? "上架该节点？" : "下架该节点？"}
                description={
                  row.status === NodeStatus.OffShelf
                    ? undefined
                    : "下架后用户无法在该节点上新建隧道，已连接的客户端会被断开。"
                }
                okText="确认"
                cancelText="取消"
                onConfirm={() =>
                  shelf
                    .mutateAsync({ node_id: row.node_id, status: row.status === NodeStatus.OffShelf ? 2 : -1 })
                    .catch(() => undefined)
                }
              >
                <Button type="link" size="small">
                  {row.status === NodeStatus.OffShelf ? "上架" : "下架"}
                </Button>
              </Popconfirm>
              <Popconfirm
                title={`删除节点「${row.name}」？`}
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutateAsync(row.node_id).catch(() => undefined)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      title="节点管理"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setEditing({})}>
            新增节点
          </Button>
        ) : null
      }
    >
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <TextFilter name="name" label="节点名称" max={50} placeholder="支持部分名称" />
        <SelectFilter
          name="area_id"
          label="地区"
          width={140}
          options={areas.data?.list.map((a) => ({ value: a.area_id, label: a.area_name }))}
        />
        <SelectFilter
          name="net_type_id"
          label="网络类型"
          width={140}
          options={netTypes.data?.list.map((t) => ({ value: t.id, label: t.name }))}
        />
        <SelectFilter name="status" label="状态" width={120} options={labelOptions(NodeStatusLabel)} />
      </SearchCard>
      <Card>
        <Table<AdminNodeRow>
          rowKey="node_id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 1800 }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <NodeFormModal editing={editing} onClose={() => setEditing(null)} />
      <NodeSetupDrawer node={deploying} canWrite={canWrite} onClose={() => setDeploying(null)} />
    </PageContainer>
  );
}
