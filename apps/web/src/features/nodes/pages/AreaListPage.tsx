import type { AreaRow } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, InputNumber, Popconfirm, Space, Table, type TableColumnsType } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { SearchActions } from "@/components/SearchActions";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { areaListQuery, createArea, deleteArea, nodesKeys, updateArea } from "../nodes.api";

interface AreaForm {
  area_name: string;
  sort?: number | null;
}

/** /admin/area: the regions nodes are grouped by. */
export function AreaListPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm<{ area_name?: string }>();
  const { filters, search, reset, pagination } = useUrlFilters({ area_name: "text" }, form);
  const { data, isFetching } = useQuery(areaListQuery(filters));
  // null: closed; undefined row: creating
  const [editing, setEditing] = useState<{ row?: AreaRow } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: nodesKeys.all });
  const remove = useMutation({
    mutationFn: deleteArea,
    onSuccess: async () => {
      feedback.success("地区已删除");
      await refresh();
    },
  });

  const save = async (v: AreaForm) => {
    const body = { area_name: v.area_name.trim(), sort: v.sort ?? 0 };
    if (editing?.row) await updateArea({ area_id: editing.row.area_id, ...body });
    else await createArea(body);
    await refresh();
  };

  const columns: TableColumnsType<AreaRow> = [
    { title: "ID", dataIndex: "area_id", width: 80 },
    { title: "地区名称", dataIndex: "area_name" },
    { title: "排序", dataIndex: "sort", width: 90 },
    { title: "节点数", dataIndex: "node_count", width: 90 },
    { title: "创建时间", dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 140,
      render: (_: unknown, row) => (
        <Space>
          <Button type="link" size="small" onClick={() => setEditing({ row })}>
            编辑
          </Button>
          <Popconfirm
            title={`删除地区「${row.area_name}」？`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(row.area_id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <PageContainer
      title="地区管理"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setEditing({})}>
            新增地区
          </Button>
        ) : null
      }
    >
      <Card className="search-card">
        <Form form={form} layout="inline" onFinish={search}>
          <Form.Item name="area_name" label="地区名称" rules={fieldRules("地区名称", { length: { max: 50 } })}>
            <Input allowClear placeholder="支持部分名称" />
          </Form.Item>
          <SearchActions onReset={reset} />
        </Form>
      </Card>
      <Card>
        <Table<AreaRow>
          rowKey="area_id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 720 }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<AreaForm>
        open={editing !== null}
        title={editing?.row ? "编辑地区" : "新增地区"}
        initialValues={editing?.row ?? { sort: 0 }}
        successText={editing?.row ? "地区已保存" : "地区已添加"}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        <Form.Item
          name="area_name"
          label="地区名称"
          rules={fieldRules("地区名称", { required: true, length: { min: 1, max: 50 } })}
        >
          <Input maxLength={50} placeholder="如：华东-上海" />
        </Form.Item>
        <Form.Item
          name="sort"
          label="排序"
          extra="数值越小越靠前"
          rules={fieldRules("排序", { integer: true, range: { min: 0, max: 1_000_000 } })}
        >
          <InputNumber min={0} max={1_000_000} precision={0} style={{ width: "100%" }} />
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}
