import type { PlanLevelRow } from "@burrow/contract";
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
import { createLevel, deleteLevel, levelListQuery, nodesKeys, updateLevel } from "../nodes.api";

interface LevelForm {
  name: string;
  level: number;
}

/** /admin/level: store levels; a plan of level N may use nodes of level ≤ N. */
export function LevelListPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm<{ name?: string }>();
  const { filters, search, reset, pagination } = useUrlFilters({ name: "text" }, form);
  const { data, isFetching } = useQuery(levelListQuery(filters));
  const [editing, setEditing] = useState<{ row?: PlanLevelRow } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: nodesKeys.all });
  const remove = useMutation({
    mutationFn: deleteLevel,
    onSuccess: async () => {
      feedback.success("等级已删除");
      await refresh();
    },
  });

  const save = async (v: LevelForm) => {
    const body = { name: v.name.trim(), level: v.level };
    if (editing?.row) await updateLevel({ id: editing.row.id, ...body });
    else await createLevel(body);
    await refresh();
  };

  const columns: TableColumnsType<PlanLevelRow> = [
    { title: "ID", dataIndex: "id", width: 80 },
    { title: "等级名称", dataIndex: "name" },
    { title: "等级", dataIndex: "level", width: 90 },
    { title: "套餐数", dataIndex: "plan_count", width: 90 },
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
            title={`删除等级「${row.name}」？`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
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
      title="商店等级"
      description="套餐等级不低于节点等级时，用户才能使用该节点"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setEditing({})}>
            新增等级
          </Button>
        ) : null
      }
    >
      <Card className="search-card">
        <Form form={form} layout="inline" onFinish={search}>
          <Form.Item name="name" label="等级名称" rules={fieldRules("等级名称", { length: { max: 50 } })}>
            <Input allowClear placeholder="支持部分名称" />
          </Form.Item>
          <SearchActions onReset={reset} />
        </Form>
      </Card>
      <Card>
        <Table<PlanLevelRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 720 }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<LevelForm>
        open={editing !== null}
        title={editing?.row ? "编辑等级" : "新增等级"}
        initialValues={editing?.row}
        successText={editing?.row ? "等级已保存" : "等级已添加"}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        <Form.Item
          name="name"
          label="等级名称"
          rules={fieldRules("等级名称", { required: true, length: { min: 1, max: 50 } })}
        >
          <Input maxLength={50} placeholder="如：专业版" />
        </Form.Item>
        <Form.Item
          name="level"
          label="等级"
          extra="数值越大等级越高"
          rules={fieldRules("等级", { required: true, integer: true, range: { min: 0, max: 1000 } })}
        >
          <InputNumber min={0} max={1000} precision={0} style={{ width: "100%" }} />
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}
