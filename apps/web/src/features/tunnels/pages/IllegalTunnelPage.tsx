import {
  type IllegalFlagRow,
  IllegalRuleKinds,
  type IllegalRuleRow,
  IllegalSourceLabel,
  IllegalSources,
  IllegalStatus,
  IllegalStatusLabel,
  TunnelStatus,
} from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Popconfirm, Radio, Select, Space, Tabs, Tag, Typography } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { FormModal } from "@/components/FormModal";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { SearchCard } from "@/components/SearchCard";
import { IdFilter, SelectFilter } from "@/components/SearchFields";
import { labelOptions } from "@/features/nodes/components/NodeTags";
import { useAccess } from "@/hooks/useAccess";
import { useUrlFilters } from "@/hooks/useUrlFilters";
import { feedback } from "@/lib/feedback";
import { formatTime, phoneText } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { AddressList } from "../components/AddressList";
import { TunnelStatusTag } from "../components/TunnelTags";
import {
  createIllegalRule,
  deleteIllegalRule,
  handleIllegal,
  illegalListQuery,
  illegalRuleListQuery,
  tunnelsKeys,
} from "../tunnels.api";

const FILTERS = { status: "int", source: "text", uid: "int", node_id: "int", tun_id: "int" } as const;

const flagColor: Record<number, string> = {
  [IllegalStatus.Pending]: "warning",
  [IllegalStatus.Banned]: "error",
  [IllegalStatus.Cleared]: "default",
};

const ruleKindLabel: Record<IllegalRuleRow["kind"], string> = { keyword: "关键词", port: "端口" };

/** Flagged tunnels: filters in the URL, ban (locks the tunnel with a reason) or clear. */
function FlagList({ canWrite }: { canWrite: boolean }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const { filters, search, reset, pagination } = useUrlFilters(FILTERS, form);
  const { data, isFetching } = useQuery(
    illegalListQuery({ ...filters, source: filters.source as IllegalFlagRow["source"] | undefined }),
  );
  const [banning, setBanning] = useState<IllegalFlagRow | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.all });
  const clear = useMutation({
    mutationFn: (row: IllegalFlagRow) => handleIllegal({ id: row.id, action: "clear" }),
    onSuccess: async (_, row) => {
      feedback.success(row.tun_status === TunnelStatus.Deleted ? "记录已关闭" : "已忽略");
      await refresh();
    },
  });

  const columns: ResponsiveColumns<IllegalFlagRow> = [
    { title: "ID", priority: 6, dataIndex: "id", width: 70 },
    {
      title: "隧道",
      role: "title",
      key: "tunnel",
      width: 200,
      render: (_: unknown, row) => (
        <Space orientation="vertical" size={0}>
          <span>
            <Typography.Text delete={row.tun_status === TunnelStatus.Deleted}>{row.tun_name}</Typography.Text>{" "}
            <Typography.Text type="secondary">#{row.tun_id}</Typography.Text>
          </span>
          <TunnelStatusTag status={row.tun_status} />
        </Space>
      ),
    },
    {
      title: "用户",
      priority: 2,
      key: "user",
      width: 150,
      render: (_: unknown, row) => `${phoneText(row.phone)} (UID ${row.uid})`,
    },
    { title: "节点", priority: 3, dataIndex: "node_name", width: 120 },
    {
      title: "地址",
      priority: 3,
      dataIndex: "addresses",
      width: 220,
      render: (a: string[]) => <AddressList addresses={a} />,
    },
    {
      title: "来源",
      priority: 3,
      dataIndex: "source",
      width: 100,
      render: (s: string, row) => (
        <Space orientation="vertical" size={0}>
          <Tag>{IllegalSourceLabel[s] ?? s}</Tag>
          {row.reporter ? <Typography.Text type="secondary">{row.reporter}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: "原因", priority: 2, dataIndex: "reason", width: 220, ellipsis: { showTitle: true } },
    {
      title: "处理状态",
      role: "status",
      dataIndex: "status",
      width: 100,
      render: (s: number) => <Tag color={flagColor[s] ?? "default"}>{IllegalStatusLabel[s] ?? s}</Tag>,
    },
    { title: "发现时间", priority: 3, dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
    {
      title: "处理时间",
      priority: 5,
      dataIndex: "handled_at",
      width: 180,
      render: (v: string | null) => formatTime(v),
    },
  ];
  if (canWrite) {
    columns.push({
      title: "操作",
      key: "actions",
      width: 130,
      render: (_: unknown, row) =>
        row.status === IllegalStatus.Pending && row.tun_status === TunnelStatus.Deleted ? (
          // Nothing left to ban or keep available: the record can only be closed.
          <Popconfirm
            title="关闭该记录？"
            description="隧道已删除，无需封禁；记录标为已处理。"
            okText="关闭记录"
            cancelText="取消"
            onConfirm={() => clear.mutateAsync(row).catch(() => undefined)}
          >
            <Button type="link" size="small">
              关闭记录
            </Button>
          </Popconfirm>
        ) : row.status === IllegalStatus.Pending ? (
          <Space size={0}>
            <Button type="link" size="small" danger onClick={() => setBanning(row)}>
              封禁
            </Button>
            <Popconfirm
              title="忽略该记录？"
              description="隧道保持可用；修改隧道后会按规则重新检测。"
              okText="忽略"
              cancelText="取消"
              onConfirm={() => clear.mutateAsync(row).catch(() => undefined)}
            >
              <Button type="link" size="small">
                忽略
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          <Typography.Text type="secondary">已处理</Typography.Text>
        ),
    });
  }

  return (
    <div className="tab-stack">
      <SearchCard form={form} onFinish={search} onReset={reset}>
        <SelectFilter name="status" label="处理状态" width={110} options={labelOptions(IllegalStatusLabel)} />
        <SelectFilter
          name="source"
          label="来源"
          width={110}
          options={IllegalSources.map((s) => ({ value: s, label: IllegalSourceLabel[s] }))}
        />
        <IdFilter name="uid" label="UID" width={110} />
        <IdFilter name="tun_id" label="隧道 ID" width={110} />
      </SearchCard>
      <Card>
        <ResponsiveTable<IllegalFlagRow>
          rowKey="id"
          columns={columns}
          dataSource={data?.list}
          loading={isFetching}
          pagination={pagination(data?.total)}
        />
      </Card>
      <FormModal<{ banned_reason: string }>
        open={banning !== null}
        title="封禁隧道"
        okText="封禁"
        initialValues={{ banned_reason: banning?.reason ?? "" }}
        successText="隧道已锁定"
        onSubmit={async (v) => {
          if (!banning) return;
          await handleIllegal({ id: banning.id, action: "ban", banned_reason: v.banned_reason.trim() });
          await refresh();
        }}
        onClose={() => setBanning(null)}
      >
        <Typography.Paragraph type="secondary">
          锁定隧道「{banning?.tun_name}」（#{banning?.tun_id}），该隧道会立即断开，用户会看到以下原因。
        </Typography.Paragraph>
        <Form.Item
          name="banned_reason"
          label="锁定原因"
          rules={fieldRules("锁定原因", { required: true, length: { min: 1, max: 200 } })}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </FormModal>
    </div>
  );
}

/** Detection rules: blocked keywords in names and domains, blocked remote ports. */
function RuleList({ canWrite }: { canWrite: boolean }) {
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
    { title: "创建时间", priority: 4, dataIndex: "created_at", width: 180, render: (v: string) => formatTime(v) },
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
            options={IllegalRuleKinds.map((k) => ({ value: k, label: ruleKindLabel[k] }))}
          />
        </Space>
      }
      extra={
        canWrite ? (
          <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setAdding(true)}>
            新增规则
          </Button>
        ) : null
      }
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
          <Radio.Group options={IllegalRuleKinds.map((k) => ({ value: k, label: ruleKindLabel[k] }))} />
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

/** /admin/tun/illegal: flagged tunnels (ban / clear) and the rules that flag them. */
export function IllegalTunnelPage() {
  const { canWrite } = useAccess();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "rules" ? "rules" : "flags";
  return (
    <PageContainer title="违规隧道">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "rules" ? new URLSearchParams({ tab: "rules" }) : new URLSearchParams())}
        items={[
          { key: "flags", label: "违规记录", children: <FlagList canWrite={canWrite} /> },
          { key: "rules", label: "检测规则", children: <RuleList canWrite={canWrite} /> },
        ]}
      />
    </PageContainer>
  );
}
