import { IllegalRuleKinds, type IllegalRuleRow } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Popconfirm, Radio, Select, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { timeColumn } from "@/components/ListColumns";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { AddButton } from "@/components/table/AddButton";
import { feedback } from "@/lib/feedback";
import { valueOptions } from "@/lib/options";
import { fieldRules } from "@/lib/rules";
import { createIllegalRule, deleteIllegalRule, illegalRuleListQuery, tunnelsKeys } from "../tunnels.api";

const ruleKindLabel: Record<IllegalRuleRow["kind"], string> = { keyword: "关键词", port: "端口" };

/** Detection rules: blocked keywords in names and domains, blocked remote ports. */
export function IllegalRuleList({ canWrite }: { canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<IllegalRuleRow["kind"] | undefined>();
  const [page, setPage] = useState({ page: 1, size: 10 });
  const { data, isFetching } = useQuery(illegalRuleListQuery({ ...page, kind }));
  const [adding, setAdding] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  const remove = useMutation({
    mutationFn: deleteIllegalRule,
    onSuccess: async () => {
      feedback.success("规则已删除");
      await refresh();
    },
  });

  const columns: ResponsiveColumns<IllegalRuleRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    {
      title: "类型",
      priority: 2,
      dataIndex: "kind",
      width: 90,
      render: (k: IllegalRuleRow["kind"]) => <Tag>{ruleKindLabel[k] ?? k}</Tag>,
    },
    {
      title: "规则",
      role: "title",
      dataIndex: "value",
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: "备注", priority: 3, dataIndex: "note", ellipsis: true },
    { title: "命中次数", priority: 2, dataIndex: "hits", width: 100 },
    timeColumn("创建时间", "created_at", { priority: 4, width: 180 }),
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 90,
      render: (_: unknown, row) => (
        <Popconfirm
          title="删除该规则？"
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      ),
    });
  }

  return (
    <Card
      title={
        <Space>
          检测规则
          <Select
            allowClear
            placeholder="全部类型"
            aria-label="规则类型"
            style={{ width: 120 }}
            value={kind}
            onChange={(v) => {
              setKind(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={valueOptions(IllegalRuleKinds, ruleKindLabel)}
          />
        </Space>
      }
      extra={canWrite ? <AddButton onClick={() => setAdding(true)}>新增规则</AddButton> : null}
    >
      <Typography.Paragraph type="secondary">
        隧道创建、修改时以及在线期间都会按规则检测：关键词匹配隧道名称和域名，端口规则匹配远程端口。命中的隧道进入违规记录等待处理。
      </Typography.Paragraph>
      <ResponsiveTable<IllegalRuleRow>
        rowKey="id"
        columns={columns}
        dataSource={data?.list}
        loading={isFetching}
        pagination={{
          current: page.page,
          pageSize: page.size,
          total: data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `共 ${total} 条`,
          onChange: (p, s) => setPage({ page: s === page.size ? p : 1, size: s }),
        }}
      />
      <FormModal<{ kind: IllegalRuleRow["kind"]; value: string; note?: string }>
        open={adding}
        title="新增检测规则"
        initialValues={{ kind: "keyword" }}
        successText="规则已添加"
        onSubmit={async (v) => {
          await createIllegalRule({ kind: v.kind, value: v.value.trim(), note: v.note?.trim() ?? "" });
          await refresh();
        }}
        onClose={() => setAdding(false)}
      >
        <Form.Item name="kind" label="类型" rules={fieldRules("类型", { required: true, choice: true })}>
          <Radio.Group options={valueOptions(IllegalRuleKinds, ruleKindLabel)} />
        </Form.Item>
        <Form.Item
          name="value"
          label="规则"
          extra="关键词不区分大小写；端口填写 22 或范围 6000-6100"
          rules={fieldRules("规则", { required: true, length: { min: 1, max: 100 } })}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="note" label="备注" rules={fieldRules("备注", { length: { max: 200 } })}>
          <Input maxLength={200} />
        </Form.Item>
      </FormModal>
    </Card>
  );
}
