import type { NetTypeRow } from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Popconfirm, Space, Table, type TableColumnsType, Tag } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { SearchActions } from "@/components/SearchActions";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { createNetType, deleteNetType, netTypeListQuery, nodesKeys, updateNetType } from "../nodes.api";

interface NetTypeForm {
  name: string;
}

/** /admin/type: network types (host, IP-vlan, mac-vlan are built in; others install the plain binary). */
export function NetTypeListPage() {
  const queryClient = useQueryClient();
  const { canWrite } = useAccess();
  const [form] = Form.useForm<{ name?: string }>();
  const { filters, search, reset, pagination } = useUrlFilters({ name: "text" }, form);
  const { data, isFetching } = useQuery(netTypeListQuery(filters));
  const [editing, setEditing] = useState<{ row?: NetTypeRow } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: nodesKeys.all });
  const remove = useMutation({
    mutationFn: deleteNetType,
    onSuccess: async () => {
      feedback.success("网络类型已删除");
      await refresh();
    },
  });

  const save = async (v: NetTypeForm) => {
    const name = v.name.trim();
    if (editing?.row) await updateNetType({ id: editing.row.id, name });
    else await createNetType({ name });
    await refresh();
  };

  const columns: TableColumnsType<NetTypeRow> = [
    { title: "ID", dataIndex: "id", width: 80 },
    {
      title: "名称",
      dataIndex: "name",
      render: (name: string, row) => (
        <Space>
          {name}
          {row.builtin ? <Tag>内置</Tag> : null}
        </Space>
      ),
    },
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
            title={`删除网络类型「${row.name}」？`}
            okText="删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            <Button
              type="link"
              size="small"
              danger
              disabled={row.builtin}
              title={row.builtin ? "内置类型不能删除" : undefined}
            >
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <PageContainer
      title="网络类型"
      description="节点的网络类型决定部署时推荐的安装方式"
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setEditing({})}>
            新增网络类型
          </Button>
        ) : null
      }
    >
      <Card className="search-card">
        <Form form={form} layout="inline" onFinish={search}>
          <Form.Item name="name" label="名称" rules={fieldRules("名称", { length: { max: 50 } })}>
            <Input allowClear placeholder="支持部分名称" />
          </Form.Item>
          <SearchActions onReset={reset} />
        </Form>
      </Card>
      <Card>
        <Table<NetTypeRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          scroll={{ x: 640 }}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<NetTypeForm>
        open={editing !== null}
        title={editing?.row ? "编辑网络类型" : "新增网络类型"}
        initialValues={editing?.row}
        successText={editing?.row ? "网络类型已保存" : "网络类型已添加"}
        onSubmit={save}
        onClose={() => setEditing(null)}
      >
        <Form.Item name="name" label="名称" rules={fieldRules("名称", { required: true, length: { min: 1, max: 50 } })}>
          <Input maxLength={50} />
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}
