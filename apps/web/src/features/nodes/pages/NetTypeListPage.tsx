import type { NetTypeRow } from "@burrow/contract";
import { Space, Tag } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import { TextItem } from "@/components/form/TextItem";
import { timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { TextFilter } from "@/components/SearchFields";
import { createNetType, deleteNetType, netTypeListQuery, nodesKeys, updateNetType } from "../nodes.api";

interface NetTypeForm {
  name: string;
}

const FILTERS = { name: "text" } as const;

const columns: ResponsiveColumns<NetTypeRow> = [
  { title: "ID", priority: 5, dataIndex: "id", width: 80 },
  {
    title: "名称",
    role: "title",
    dataIndex: "name",
    render: (name: string, row) => (
      <Space>
        {name}
        {row.builtin ? <Tag>内置</Tag> : null}
      </Space>
    ),
  },
  { title: "节点数", priority: 2, dataIndex: "node_count", width: 90 },
  timeColumn("创建时间", "created_at", { priority: 4, width: 180 }),
];

const save = async (v: NetTypeForm, row: NetTypeRow | undefined) => {
  const name = v.name.trim();
  if (row) await updateNetType({ id: row.id, name });
  else await createNetType({ name });
};

/** /admin/type: network types (host, IP-vlan, mac-vlan are built in; others install the plain binary). */
export function NetTypeListPage() {
  return (
    <CrudListPage
      title="网络类型"
      description="节点的网络类型决定部署时推荐的安装方式"
      noun="网络类型"
      filterSpec={FILTERS}
      searchFields={<TextFilter name="name" label="名称" max={50} placeholder="支持部分名称" />}
      query={netTypeListQuery}
      invalidateKey={nodesKeys.all}
      rowKey="id"
      columns={columns}
      actions={{ width: 140 }}
      deleteTitle={(row) => `删除网络类型「${row.name}」？`}
      onDelete={(row) => deleteNetType(row.id)}
      deleteBlocked={(row) => (row.builtin ? "内置类型不能删除" : undefined)}
      onSave={save}
      formFields={<TextItem name="name" label="名称" required length={{ min: 1, max: 50 }} maxLength={50} />}
    />
  );
}
