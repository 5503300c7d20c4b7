import type { PlanLevelRow } from "@burrow/contract";
import { CrudListPage } from "@/components/CrudListPage";
import { NumberItem } from "@/components/form/NumberItem";
import { TextItem } from "@/components/form/TextItem";
import { timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { TextFilter } from "@/components/SearchFields";
import { createLevel, deleteLevel, levelListQuery, nodesKeys, updateLevel } from "../nodes.api";

interface LevelForm {
  name: string;
  level: number;
}

const FILTERS = { name: "text" } as const;

const columns: ResponsiveColumns<PlanLevelRow> = [
  { title: "ID", priority: 5, dataIndex: "id", width: 80 },
  { title: "等级名称", role: "title", dataIndex: "name" },
  { title: "等级", priority: 2, dataIndex: "level", width: 90 },
  { title: "套餐数", priority: 2, dataIndex: "plan_count", width: 90 },
  timeColumn("创建时间", "created_at", { priority: 4, width: 180 }),
];

const save = async (v: LevelForm, row: PlanLevelRow | undefined) => {
  const body = { name: v.name.trim(), level: v.level };
  if (row) await updateLevel({ id: row.id, ...body });
  else await createLevel(body);
};

/** /admin/level: store levels; a plan of level N may use nodes of level ≤ N. */
export function LevelListPage() {
  return (
    <CrudListPage
      title="商店等级"
      description="套餐等级不低于节点等级时，用户才能使用该节点"
      noun="等级"
      filterSpec={FILTERS}
      searchFields={<TextFilter name="name" label="等级名称" max={50} placeholder="支持部分名称" />}
      query={levelListQuery}
      invalidateKey={nodesKeys.all}
      rowKey="id"
      columns={columns}
      actions={{ width: 140 }}
      deleteTitle={(row) => `删除等级「${row.name}」？`}
      onDelete={(row) => deleteLevel(row.id)}
      onSave={save}
      formFields={
        <>
          <TextItem
            name="name"
            label="等级名称"
            required
            length={{ min: 1, max: 50 }}
            maxLength={50}
            placeholder="如：专业版"
          />
          <NumberItem name="level" label="等级" extra="数值越大等级越高" required min={0} max={1000} precision={0} />
        </>
      }
    />
  );
}
