import { NodeStatusLabel, type UserNodeRow } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Form, Space, Typography } from "antd";
import { Link } from "react-router";
import { statusColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { AddButton } from "@/components/table/AddButton";
import { PagedTable } from "@/components/table/PagedTable";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { labelOptions } from "@/lib/options";
import { NodeStatusTag, ProtocolTags } from "../components/NodeTags";
import { userNodeListQuery } from "../nodes.api";

const FILTERS = { name: "text", status: "int" } as const;

const columns: ResponsiveColumns<UserNodeRow> = [
  {
    title: "节点",
    role: "title",
    dataIndex: "name",
    width: 220,
    render: (name: string, row) => (
      <Space orientation="vertical" size={0}>
        <Typography.Text strong>{name}</Typography.Text>
        {row.description ? <Typography.Text type="secondary">{row.description}</Typography.Text> : null}
      </Space>
    ),
  },
  { title: "地区", priority: 2, dataIndex: "area_name", width: 120 },
  { title: "网络类型", priority: 4, dataIndex: "net_type_name", width: 110 },
  statusColumn("status", 90, (s: number) => <NodeStatusTag status={s} />),
  {
    title: "负载",
    priority: 3,
    key: "load",
    width: 160,
    render: (_: unknown, row) => (
      <Typography.Text type="secondary">
        在线客户端 {row.load.clients} · 连接 {row.load.cur_conns}
      </Typography.Text>
    ),
  },
  {
    title: "协议",
    priority: 2,
    dataIndex: "protocols",
    width: 150,
    render: (p: string[]) => <ProtocolTags protocols={p} />,
  },
  {
    title: "远程端口范围",
    priority: 2,
    key: "ports",
    width: 130,
    render: (_: unknown, row) => `${row.port_min}-${row.port_max}`,
  },
  {
    title: "带宽",
    priority: 3,
    dataIndex: "bandwidth",
    width: 100,
    render: (mbps: number) => (mbps > 0 ? `${mbps} Mbps` : "不限"),
  },
  { title: "等级", priority: 3, dataIndex: "level_name", width: 100 },
];

/** /tun/node: the nodes the customer's plan may use. */
export function UserNodeListPage() {
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(userNodeListQuery(filters));

  const actions: ResponsiveColumns<UserNodeRow>[number] = {
    title: "操作",
    key: "actions",
    width: 110,
    render: (_: unknown, row) => <Link to={`/tun/list/add?node_id=${row.node_id}`}>创建隧道</Link>,
  };

  return (
    <PageContainer
      title="节点列表"
      description="你的套餐可以使用的节点；节点等级高于套餐等级时不会显示"
      extra={<AddButton to="/tun/list/add">创建隧道</AddButton>}
    >
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <TextFilter name="name" label="节点名称" max={50} placeholder="支持部分名称" />
        <SelectFilter name="status" label="状态" width={120} options={labelOptions(NodeStatusLabel)} />
      </SearchCard>
      <Card>
        <PagedTable<UserNodeRow>
          rowKey="node_id"
          columns={[...columns, actions]}
          query={{ data, isFetching }}
          pagination={pagination}
          locale={{ emptyText: <Empty description="暂无可用节点，请先购买或续费套餐" /> }}
        />
      </Card>
    </PageContainer>
  );
}
