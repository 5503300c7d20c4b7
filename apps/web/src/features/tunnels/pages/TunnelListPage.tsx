import { TunnelStatus, TunnelStatusLabel, type TunnelView } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Empty, Form, Popconfirm, Space, Switch, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { LinkButton } from "@/components/LinkButton";
import { statusColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { AddButton } from "@/components/table/AddButton";
import { PagedTable } from "@/components/table/PagedTable";
import { ProtocolTag } from "@/features/nodes/components/NodeTags";
import { ALL, userNodeListQuery } from "@/features/nodes/nodes.api";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatBytes } from "@/lib/format";
import { AddressList } from "../components/AddressList";
import { MoveTunnelModal } from "../components/MoveTunnelModal";
import { TunnelBatchBar } from "../components/TunnelBatchBar";
import { TunnelFilterFields } from "../components/TunnelFilterFields";
import { ScheduleNote } from "../components/TunnelScheduleCard";
import { TunnelStatusTag } from "../components/TunnelTags";
import { deleteTunnel, tunnelListQuery, tunnelsKeys, updateTunnel } from "../tunnels.api";

const FILTERS = { name: "text", node_id: "int", protocol: "text", status: "int" } as const;

/** Customers filter by the three live statuses; deleted tunnels are not theirs to see. */
const statusOptions = [TunnelStatus.Connected, TunnelStatus.Offline, TunnelStatus.Locked].map((s) => ({
  value: s,
  label: TunnelStatusLabel[s],
}));

const detailPath = (tunId: number) => `/tun/list/${tunId}`;

/** /tun/list: the customer's tunnels with their state, address and today's traffic. */
export function TunnelListPage() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    tunnelListQuery({ ...filters, protocol: filters.protocol as TunnelView["protocol"] | undefined }),
  );
  const nodes = useQuery(userNodeListQuery(ALL));

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  // 批量操作's selection (rows of the page shown) and 迁移节点's tunnel
  const [selected, setSelected] = useState<TunnelView[]>([]);
  const [moving, setMoving] = useState<TunnelView | null>(null);
  const toggle = useMutation({
    mutationFn: (v: { tun_id: number; enabled: boolean }) => updateTunnel(v),
    onSuccess: async (t) => {
      feedback.success(t.enabled ? `隧道「${t.tun_name}」已启用` : `隧道「${t.tun_name}」已停用`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: deleteTunnel,
    onSuccess: async () => {
      feedback.success("隧道已删除");
      await refresh();
    },
  });

  const columns: ResponsiveColumns<TunnelView> = [
    statusColumn("status", 120, (s: number, row) => (
      <Space direction="vertical" size={0}>
        <TunnelStatusTag status={s} enabled={row.enabled} bannedReason={row.banned_reason} />
        <ScheduleNote tunnel={row} />
      </Space>
    )),
    {
      title: "隧道名称",
      role: "title",
      dataIndex: "tun_name",
      width: 140,
      render: (name: string, row) => <Link to={detailPath(row.tun_id)}>{name}</Link>,
    },
    // the node is named in 访问地址 too: the first to fold into the row's detail
    { title: "节点", priority: 3, dataIndex: "node_name", width: 120 },
    {
      title: "协议",
      priority: 2,
      dataIndex: "protocol",
      width: 80,
      render: (p: string) => <ProtocolTag protocol={p} />,
    },
    {
      title: "本地服务",
      priority: 3,
      key: "local",
      width: 140,
      render: (_: unknown, row) => `${row.local_ip}:${row.local_port}`,
    },
    {
      title: "访问地址",
      priority: 2,
      dataIndex: "addresses",
      width: 230,
      render: (a: string[]) => <AddressList addresses={a} />,
    },
    {
      title: "今日流量（入/出）",
      priority: 3,
      key: "today",
      width: 160,
      render: (_: unknown, row) => (
        <Typography.Text type="secondary">
          {formatBytes(row.today_in)} / {formatBytes(row.today_out)}
        </Typography.Text>
      ),
    },
    {
      title: "启用",
      priority: 2,
      dataIndex: "enabled",
      width: 70,
      render: (enabled: boolean, row) => (
        <Switch
          size="small"
          aria-label={`启用 ${row.tun_name}`}
          checked={enabled}
          disabled={row.status === TunnelStatus.Locked}
          loading={toggle.isPending && toggle.variables?.tun_id === row.tun_id}
          onChange={(on) => toggle.mutate({ tun_id: row.tun_id, enabled: on })}
        />
      ),
    },
    {
      title: "操作",
      key: "actions",
      width: 150,
      render: (_: unknown, row) => (
        <Space size={0}>
          <LinkButton type="link" size="small" to={detailPath(row.tun_id)}>
            详情
          </LinkButton>
          <Button type="link" size="small" disabled={row.status === TunnelStatus.Locked} onClick={() => setMoving(row)}>
            迁移
          </Button>
          <Popconfirm
            title={`删除隧道「${row.tun_name}」？`}
            description="删除后远程端口或域名会被释放。"
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            disabled={row.status === TunnelStatus.Locked}
            onConfirm={() => remove.mutateAsync(row.tun_id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger disabled={row.status === TunnelStatus.Locked}>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title="隧道列表" extra={<AddButton to="/tun/list/add">创建隧道</AddButton>}>
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <TunnelFilterFields nodes={nodes.data?.list} statusOptions={statusOptions} />
      </SearchCard>
      <Card>
        <TunnelBatchBar
          selected={selected}
          onDone={() => {
            setSelected([]);
            return refresh();
          }}
        />
        <PagedTable<TunnelView>
          rowKey="tun_id"
          rowSelection={{
            selectedRowKeys: selected.map((t) => t.tun_id),
            onChange: (_keys, rows) => setSelected(rows),
            getCheckboxProps: (row) => ({ "aria-label": `选择 ${row.tun_name}` }),
          }}
          columns={columns}
          query={{ data, isFetching }}
          pagination={pagination}
          locale={{
            emptyText: (
              <Empty description="还没有隧道">
                <LinkButton type="primary" to="/tun/list/add">
                  创建第一条隧道
                </LinkButton>
              </Empty>
            ),
          }}
        />
      </Card>
      <MoveTunnelModal
        tunnel={moving}
        nodes={nodes.data?.list ?? []}
        onClose={() => setMoving(null)}
        onMoved={refresh}
      />
    </PageContainer>
  );
}
