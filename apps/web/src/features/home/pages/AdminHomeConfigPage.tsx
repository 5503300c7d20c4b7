import { CreateHomeConfigBody, type HomeConfigRow, HomeKindLabels, isSafeHref } from "@burrow/contract";
import { Card, Col, ColorPicker, Form, Row, Select, Tag, Typography } from "antd";
import { CrudListPage } from "@/components/CrudListPage";
import { SwitchItem } from "@/components/form/SwitchItem";
import { TextItem } from "@/components/form/TextItem";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { SelectFilter, TextFilter } from "@/components/SearchFields";
import { SortField } from "@/components/SortField";
import { formatTime } from "@/lib/format";
import { fieldRules, schemaRule } from "@/lib/rules";
import { HomeContent, titleColor } from "../components/HomeContent";
import { adminHomeConfigQuery, createHomeConfig, deleteHomeConfig, homeKeys, updateHomeConfig } from "../home.api";

const FILTERS = { data_type: "int", title: "text", content: "text" } as const;
const kindOptions = [1, 2, 3].map((k) => ({ value: k, label: HomeKindLabels[k] }));

interface HomeForm {
  data_type: 1 | 2 | 3;
  title: string;
  title_color?: string;
  content?: string;
  link?: string;
  sort?: number | null;
  addon: { published: boolean };
}

const columns: ResponsiveColumns<HomeConfigRow> = [
  { title: "ID", priority: 6, dataIndex: "id", width: 70 },
  { title: "类型", priority: 2, dataIndex: "data_type", width: 90, render: (k: number) => HomeKindLabels[k] },
  {
    title: "标题",
    role: "title",
    dataIndex: "title",
    width: 200,
    ellipsis: true,
    render: (t: string, r) => <span style={{ color: titleColor(r.title_color) }}>{t}</span>,
  },
  {
    title: "状态",
    role: "status",
    key: "published",
    width: 90,
    render: (_: unknown, r) => (r.addon.published ? <Tag color="green">已发布</Tag> : <Tag>未发布</Tag>),
  },
  { title: "内容", priority: 4, dataIndex: "content", ellipsis: true },
  { title: "链接", priority: 4, dataIndex: "link", width: 180, ellipsis: true },
  { title: "排序", priority: 5, dataIndex: "sort", width: 70 },
  { title: "更新时间", priority: 3, dataIndex: "updated_at", width: 180, render: (v: string) => formatTime(v) },
];

const bodyOf = (v: HomeForm) => ({
  data_type: v.data_type,
  title: v.title.trim(),
  title_color: v.title_color?.trim() ?? "",
  content: v.content ?? "",
  link: v.link?.trim() ?? "",
  sort: v.sort ?? 0,
  addon: { published: v.addon?.published !== false },
});

const save = async (v: HomeForm, row: HomeConfigRow | undefined) => {
  const body = bodyOf(v);
  if (!row) {
    await createHomeConfig(body);
    return;
  }
  // PATCH sends only what changed (SPEC: id plus a param object).
  const param: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(body) as [keyof typeof body, unknown][]) {
    const cur = row[k];
    if (JSON.stringify(cur) !== JSON.stringify(val)) param[k] = val;
  }
  await updateHomeConfig({ id: row.id, param });
};

/** What the customer dashboard will show for the entry being edited. */
function Preview() {
  const form = Form.useFormInstance<HomeForm>();
  const v = Form.useWatch([], form) as Partial<HomeForm> | undefined;
  if (!v?.data_type || !v.title) return <Typography.Text type="secondary">填写标题后在此预览</Typography.Text>;
  const link = v.link?.trim() ?? "";
  const row: HomeConfigRow = {
    id: 0,
    data_type: v.data_type,
    title: v.title,
    title_color: v.title_color ?? "",
    content: v.content ?? "",
    link: isSafeHref(link) ? link : "",
    sort: 0,
    addon: { published: true },
    created_at: "",
    updated_at: "",
  };
  return (
    <HomeContent
      home={{
        carousel: row.data_type === 1 ? [row] : [],
        notices: row.data_type === 2 ? [row] : [],
        quote: row.data_type === 3 ? row : null,
      }}
    />
  );
}

/** /admin/setter/main: the customer dashboard's carousel, notices and quote. */
export function AdminHomeConfigPage() {
  return (
    <CrudListPage
      title="首页内容"
      description="用户仪表盘的轮播、公告和一句话；内容支持 **粗体**、*斜体* 和 [链接](https://…)。"
      noun="内容"
      filterSpec={FILTERS}
      searchFields={
        <>
          <SelectFilter name="data_type" label="类型" width={120} options={kindOptions} />
          <TextFilter name="title" label="标题" max={100} />
          <TextFilter name="content" label="内容" max={100} />
        </>
      }
      query={(filters) => adminHomeConfigQuery({ ...filters, data_type: filters.data_type as 1 | 2 | 3 | undefined })}
      invalidateKey={homeKeys.all}
      rowKey="id"
      columns={columns}
      actions={{ width: 130, compact: true }}
      deleteTitle={(row) => `删除「${row.title}」？`}
      onDelete={(row) => deleteHomeConfig(row.id)}
      onSave={(v: HomeForm, row) => save(v, row)}
      newValues={{ data_type: 2, sort: 0, addon: { published: true }, title_color: "" }}
      modalWidth={720}
      formFields={
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="data_type" label="类型" rules={fieldRules("类型", { required: true, choice: true })}>
              <Select options={kindOptions} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <SortField />
          </Col>
          <Col xs={12} sm={6}>
            <SwitchItem name={["addon", "published"]} label="发布" />
          </Col>
          <Col xs={24} sm={16}>
            <TextItem name="title" label="标题" required length={{ max: 100 }} maxLength={100} />
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="title_color"
              label="标题颜色"
              rules={[schemaRule(CreateHomeConfigBody.shape.title_color)]}
              getValueFromEvent={(c: { toHexString?: () => string } | string) =>
                typeof c === "string" ? c : (c?.toHexString?.() ?? "")
              }
            >
              <ColorPicker allowClear showText format="hex" disabledAlpha />
            </Form.Item>
          </Col>
          <Col span={24}>
            <TextItem
              name="link"
              label="链接"
              length={{ max: 500 }}
              placeholder="https://… 或 /doc/…"
              rules={[
                {
                  validator: (_, v?: string) =>
                    !v?.trim() || isSafeHref(v.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error("链接只能是 http(s) 地址或以 / 开头的站内路径")),
                },
              ]}
            />
          </Col>
          <Col span={24}>
            <TextItem name="content" label="内容" length={{ max: 5000 }} rows={4} maxLength={5000} />
          </Col>
          <Col span={24}>
            <Card size="small" title="预览" className="home-preview">
              <Preview />
            </Card>
          </Col>
        </Row>
      }
    />
  );
}
