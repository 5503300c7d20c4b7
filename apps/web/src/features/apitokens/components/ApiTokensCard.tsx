import {
  ApiTokenScopeLabel,
  ApiTokenScopes,
  type ApiTokenView,
  CreateApiTokenBody,
  type CreatedApiToken,
  MAX_LIVE_API_TOKENS,
} from "@burrow/contract";
import { RiAddLine } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Checkbox, Form, Input, Popconfirm, Select, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { FormModal } from "@/components/FormModal";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { ShownOnceModal } from "@/components/ShownOnceModal";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { schemaRule } from "@/lib/rules";
import { apiTokenKeys, apiTokensQuery, createApiToken, revokeApiToken } from "../apitokens.api";

const EXPIRY_OPTIONS = [
  { value: 30, label: "30 天" },
  { value: 90, label: "90 天" },
  { value: 180, label: "180 天" },
  { value: 365, label: "1 年" },
  { value: 0, label: "永不过期" },
];

interface CreateValues {
  name: string;
  scopes: CreateApiTokenBody["scopes"];
  /** 0: never */
  expires_days: number;
}

function status(t: ApiTokenView): { text: string; color: string } {
  if (t.revoked_at) return { text: "已撤销", color: "default" };
  if (t.expires_at && Date.parse(t.expires_at) <= Date.now()) return { text: "已过期", color: "warning" };
  return { text: "有效", color: "success" };
}

/** 个人中心 → API 令牌: list, create (the token shown once), revoke after confirmation. */
export function ApiTokensCard() {
  const queryClient = useQueryClient();
  const { data: tokens = [], isLoading } = useQuery(apiTokensQuery());
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all });
  const revoke = useMutation({
    mutationFn: revokeApiToken,
    onSuccess: () => {
      feedback.success("令牌已撤销");
      return refresh();
    },
  });

  const columns: ResponsiveColumns<ApiTokenView> = [
    { title: "名称", role: "title", dataIndex: "name", width: 140 },
    {
      title: "权限范围",
      key: "scopes",
      priority: 2,
      width: 170,
      render: (_, t) => (
        <Space size={[4, 4]} wrap>
          {t.scopes.map((s) => (
            <Tag key={s} title={ApiTokenScopeLabel[s]}>
              {s}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: "创建 / 到期",
      key: "validity",
      priority: 2,
      width: 170,
      render: (_, t) => (
        <>
          <div>{formatTime(t.created_at)}</div>
          <Typography.Text type="secondary">
            {t.expires_at ? `至 ${formatTime(t.expires_at)}` : "永不过期"}
          </Typography.Text>
        </>
      ),
    },
    {
      title: "最近使用",
      key: "last_used",
      priority: 2,
      width: 170,
      render: (_, t) =>
        t.last_used_at ? (
          <>
            <div>{formatTime(t.last_used_at)}</div>
            <Typography.Text type="secondary">{t.last_used_ip}</Typography.Text>
          </>
        ) : (
          "从未使用"
        ),
    },
    {
      title: "状态",
      key: "status",
      role: "status",
      priority: 1,
      width: 80,
      render: (_, t) => <Tag color={status(t).color}>{status(t).text}</Tag>,
    },
    {
      title: "操作",
      key: "actions",
      role: "action",
      width: 80,
      render: (_, t) =>
        t.revoked_at ? null : (
          <Popconfirm
            title={`撤销令牌「${t.name}」？`}
            description="撤销后，使用此令牌的脚本将立即无法调用接口。"
            okText="撤销"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => revoke.mutateAsync(t.id)}
          >
            <Button danger size="small" aria-label={`撤销 ${t.name}`}>
              撤销
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      title="API 令牌"
      extra={
        <Button type="primary" icon={<RiAddLine size={16} />} onClick={() => setCreating(true)}>
          创建令牌
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        用于脚本和自动化调用 Burrow 接口（请求头 <Typography.Text code>Authorization: Bearer brw_…</Typography.Text>
        ），只能访问所选权限范围内的接口，不能购买、充值、提现或管理令牌。最多同时持有 {MAX_LIVE_API_TOKENS}{" "}
        个有效令牌。用法见 <Link to="/doc/api">API 文档</Link>。
      </Typography.Paragraph>
      <ResponsiveTable<ApiTokenView>
        rowKey="id"
        size="small"
        loading={isLoading}
        columns={columns}
        dataSource={tokens}
        pagination={false}
        locale={{ emptyText: "还没有 API 令牌" }}
      />
      <FormModal<CreateValues>
        open={creating}
        title="创建 API 令牌"
        okText="创建"
        initialValues={{ expires_days: 90, scopes: ["tunnels:read"] }}
        onClose={() => setCreating(false)}
        onSubmit={async (v) => {
          const token = await createApiToken({
            name: v.name,
            scopes: v.scopes,
            expires_days: v.expires_days || null,
          });
          setCreated(token);
          await refresh();
        }}
      >
        <Form.Item
          name="name"
          label="名称"
          rules={[{ required: true, message: "请输入令牌名称" }, schemaRule(CreateApiTokenBody.shape.name)]}
        >
          <Input placeholder="如：部署脚本" maxLength={40} />
        </Form.Item>
        <Form.Item
          name="scopes"
          label="权限范围"
          rules={[{ required: true, type: "array", min: 1, message: "请至少选择一个权限范围" }]}
        >
          <Checkbox.Group className="api-token-scopes">
            <Space direction="vertical">
              {ApiTokenScopes.map((s) => (
                <Checkbox key={s} value={s}>
                  <Typography.Text code>{s}</Typography.Text> {ApiTokenScopeLabel[s]}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="expires_days" label="有效期">
          <Select options={EXPIRY_OPTIONS} />
        </Form.Item>
      </FormModal>
      <ShownOnceModal
        value={created?.token ?? null}
        title="令牌已创建"
        what="令牌"
        lost="遗失后请撤销并重新创建。"
        testId="api-token-value"
        onClose={() => setCreated(null)}
      />
    </Card>
  );
}
