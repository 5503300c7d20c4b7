import { type AdminNodeRow, NodeStatus, NodeStatusLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Popconfirm, Space } from "antd";
import { useState } from "react";
import { ListTableCard } from "@/components/ListTableCard";
import { PageContainer } from "@/components/PageContainer";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { AddButton } from "@/components/table/AddButton";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { labelOptions } from "@/lib/options";
import { NodeFormModal } from "../components/NodeFormModal";
import { NodeSetupDrawer } from "../components/NodeSetupDrawer";
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
import { nodeColumns } from "./NodeListPage.columns";

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

  const columns = nodeColumns({
    title: "操作",
    key: "actions",
    width: canWrite ? 200 : 80,
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
  });

  return (
    <PageContainer
      title="节点管理"
      extra={canWrite ? <AddButton onClick={() => setEditing({})}>新增节点</AddButton> : null}
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
      <ListTableCard columns={columns} data={data} loading={isFetching} pagination={pagination} rowKey="node_id" />
      <NodeFormModal editing={editing} onClose={() => setEditing(null)} />
      <NodeSetupDrawer node={deploying} canWrite={canWrite} onClose={() => setDeploying(null)} />
    </PageContainer>
  );
}
