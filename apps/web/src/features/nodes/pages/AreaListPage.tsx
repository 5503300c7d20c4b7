import type { AreaRow } from "@burrow/contract";
import { Form, Switch, Tag } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import { TextItem } from "@/components/form/TextItem";
import { timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { TextFilter } from "@/components/SearchFields";
import { SortField } from "@/components/SortField";
import { areaListQuery, createArea, deleteArea, nodesKeys, updateArea } from "../nodes.api";

interface AreaForm {
  area_name: string;
  sort?: number | null;
  /** 1: custom domains on this area's nodes need an ICP filing number */
  icp_required?: number;
}

const FILTERS = { area_name: "text" } as const;

const columns: ResponsiveColumns<AreaRow> = [
  { title: "ID", priority: 5, dataIndex: "area_id", width: 80 },
  { title: "地区名称", role: "title", dataIndex: "area_name" },
  { title: "排序", priority: 4, dataIndex: "sort", width: 90 },
  {
    title: "域名备案",
    priority: 2,
    dataIndex: "icp_required",
    width: 110,
    render: (v: number) => (v ? <Tag color="orange">需 ICP 备案</Tag> : <Tag>不要求</Tag>),
  },
  { title: "节点数", priority: 2, dataIndex: "node_count", width: 90 },
  timeColumn("创建时间", "created_at", { priority: 4, width: 180 }),
];

const save = async (v: AreaForm, row: AreaRow | undefined) => {
  const body = {
    area_name: v.area_name.trim(),
    sort: v.sort ?? 0,
    icp_required: v.icp_required ? (1 as const) : (0 as const),
  };
  if (row) await updateArea({ area_id: row.area_id, ...body });
  else await createArea(body);
};

/** /admin/area: the regions nodes are grouped by. */
export function AreaListPage() {
  return (
    <CrudListPage
      title="地区管理"
      noun="地区"
      filterSpec={FILTERS}
      searchFields={<TextFilter name="area_name" label="地区名称" max={50} placeholder="支持部分名称" />}
      query={areaListQuery}
      invalidateKey={nodesKeys.all}
      rowKey="area_id"
      columns={columns}
      actions={{ width: 140 }}
      deleteTitle={(row) => `删除地区「${row.area_name}」？`}
      onDelete={(row) => deleteArea(row.area_id)}
      onSave={save}
      newValues={{ sort: 0, icp_required: 0 }}
      formFields={
        <>
          <TextItem
            name="area_name"
            label="地区名称"
            required
            length={{ min: 1, max: 50 }}
            maxLength={50}
            placeholder="如：华东-上海"
          />
          <SortField extra="数值越小越靠前" />
          <Form.Item
            name="icp_required"
            label="自定义域名需 ICP 备案"
            getValueProps={(v?: number) => ({ checked: v === 1 })}
            normalize={(checked: boolean) => (checked ? 1 : 0)}
            extra="开启后，用户为该地区节点添加域名时必须填写 ICP 备案号（中国大陆节点）"
          >
            <Switch />
          </Form.Item>
        </>
      }
    />
  );
}
