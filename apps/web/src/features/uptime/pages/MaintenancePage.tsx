import type { MaintenanceView } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, DatePicker, Form, Input, Popconfirm, Select, Space, Table, Tag } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { ALL, adminNodeListQuery } from "@/features/nodes/nodes.api";
import { dayjs } from "@/lib/dayjs";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { cancelMaintenance, createMaintenance, maintenanceQuery, updateMaintenance, uptimeKeys } from "../uptime.api";

interface MaintenanceForm {
  title: string;
  window: [Dayjs, Dayjs];
  node_ids: number[];
}

const toBody = (v: MaintenanceForm) => ({
  title: v.title,
  starts_at: v.window[0].toISOString(),
  ends_at: v.window[1].toISOString(),
  node_ids: v.node_ids,
});

/** /admin/maintenance: announce, edit and cancel maintenance windows (shown on /status, customers told). */
export function MaintenancePage() {
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(maintenanceQuery());
  const nodes = useQuery(adminNodeListQuery(ALL));
  const [editing, setEditing] = useState<MaintenanceView | "new" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: uptimeKeys.all });
  const cancel = useMutation({
    mutationFn: cancelMaintenance,
    onSuccess: async () => {
      feedback.success("维护计划已取消");
      await refresh();
    },
  });
  const nodeOptions = (nodes.data?.list ?? []).map((n) => ({ value: n.node_id, label: n.name }));
  const initial =
    editing && editing !== "new"
      ? {
          title: editing.title,
          window: [dayjs(editing.starts_at), dayjs(editing.ends_at)] as [Dayjs, Dayjs],
          node_ids: editing.nodes.map((n) => n.node_id),
        }
      : undefined;

  return (
    <PageContainer
      title="维护计划"
      description="发布的维护会显示在公开的服务状态页（/status），并通知这些节点上有隧道的用户"
      extra={
        <Button type="primary" onClick={() => setEditing("new")}>
          发布维护
        </Button>
      }
    >
      <Card>
        <Table
          rowKey="id"
          loading={isPending}
          dataSource={data ?? []}
          pagination={false}
          columns={[
            { title: "标题", dataIndex: "title" },
            { title: "开始", dataIndex: "starts_at", render: (v: string) => formatTime(v) },
            { title: "结束", dataIndex: "ends_at", render: (v: string) => formatTime(v) },
            {
              title: "节点",
              dataIndex: "nodes",
              render: (ns: MaintenanceView["nodes"]) => ns.map((n) => <Tag key={n.node_id}>{n.name}</Tag>),
            },
            {
              title: "状态",
              dataIndex: "cancelled_at",
              render: (v: string | null) => (v ? <Tag>已取消</Tag> : <Tag color="orange">已发布</Tag>),
            },
            {
              title: "操作",
              key: "op",
              render: (_: unknown, m: MaintenanceView) =>
                m.cancelled_at ? null : (
                  <Space>
                    <Button size="small" onClick={() => setEditing(m)}>
                      编辑
                    </Button>
                    <Popconfirm
                      title="取消该维护计划？用户会收到通知"
                      okText="确认取消"
                      cancelText="返回"
                      onConfirm={() => cancel.mutateAsync(m.id)}
                    >
                      <Button size="small" danger>
                        取消维护
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <FormModal<MaintenanceForm>
        open={editing !== null}
        title={editing === "new" ? "发布维护" : "编辑维护"}
        initialValues={initial}
        fieldMap={{ starts_at: "window", ends_at: "window" }}
        successText={editing === "new" ? "维护已发布" : "维护已更新"}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          if (editing === "new") await createMaintenance(toBody(v));
          else if (editing) await updateMaintenance({ id: editing.id, ...toBody(v) });
          await refresh();
        }}
      >
        <Form.Item name="title" label="标题" rules={fieldRules("标题", { required: true, length: { max: 100 } })}>
          <Input placeholder="例如：机房网络升级" />
        </Form.Item>
        <Form.Item name="window" label="维护时间" rules={fieldRules("维护时间", { required: true, choice: true })}>
          <DatePicker.RangePicker showTime style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item name="node_ids" label="节点" rules={fieldRules("节点", { required: true, choice: true })}>
          <Select mode="multiple" options={nodeOptions} loading={nodes.isPending} placeholder="选择受影响的节点" />
        </Form.Item>
      </FormModal>
    </PageContainer>
  );
}
