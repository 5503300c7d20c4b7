import type { OidcProviderRow } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Popconfirm, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { AddButton } from "@/components/table/AddButton";
import { siteQuery } from "@/features/shell/shell.api";
import { feedback } from "@/lib/feedback";
import { OidcProviderModal } from "../components/OidcProviderModal";
import { adminOidcQuery, deleteOidcProvider, oidcKeys } from "../oidc.api";

const columns: ResponsiveColumns<OidcProviderRow> = [
  { title: "ID", priority: 6, dataIndex: "id", width: 60 },
  statusColumn("enabled", 80, (on: boolean) => (on ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>)),
  { title: "显示名称", role: "title", dataIndex: "name", width: 140 },
  { title: "签发者（Issuer）", priority: 3, dataIndex: "issuer", ellipsis: true },
  { title: "Client ID", priority: 3, dataIndex: "client_id", width: 180, ellipsis: true },
  { title: "范围", priority: 4, dataIndex: "scopes", width: 140 },
  timeColumn("更新时间", "updated_at", { priority: 4, width: 170 }),
];

/** /admin/oidc: the OpenID Connect providers customers may sign in with (Manager only). */
export function AdminOidcPage() {
  const queryClient = useQueryClient();
  const { data, isFetching } = useQuery(adminOidcQuery());
  const { data: site } = useQuery(siteQuery());
  const [editing, setEditing] = useState<{ row?: OidcProviderRow } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: oidcKeys.all });
  const remove = useMutation({
    mutationFn: deleteOidcProvider,
    onSuccess: async () => {
      feedback.success("登录方式已删除");
      await refresh();
    },
  });

  return (
    <PageContainer title="第三方登录">
      {site?.public_url ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={
            <>
              在身份提供方登记本站的回调地址：
              <Typography.Text code copyable className="oidc-callback-url">
                {`${site.public_url}/callback/auth`}
              </Typography.Text>
              。Client Secret 加密保存，保存后不再显示；更改签发者地址或 Client ID 时须重新输入。
            </>
          }
        />
      ) : site ? (
        <Alert
          className="public-url-missing"
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="站点未设置 PUBLIC_URL，第三方登录暂不可用"
          description={
            <>
              回调地址由 PUBLIC_URL
              决定，未设置时无法在身份提供方登记，用户点击第三方登录会被拒绝。请在服务器环境变量中设置
              <Typography.Text code>PUBLIC_URL</Typography.Text>
              为控制台的公网地址并重启（见 docs/deploy.md），回调地址将显示在这里。Client Secret
              加密保存，保存后不再显示。
            </>
          }
        />
      ) : null}
      <Card title="OpenID Connect 登录方式" extra={<AddButton onClick={() => setEditing({})}>新增登录方式</AddButton>}>
        <ResponsiveTable<OidcProviderRow>
          rowKey="id"
          loading={isFetching}
          dataSource={data ?? []}
          pagination={false}
          columns={[
            ...columns,
            {
              title: "操作",
              key: "actions",
              width: 130,
              render: (_, row) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => setEditing({ row })}>
                    编辑
                  </Button>
                  <Popconfirm
                    title={`删除 ${row.name}？`}
                    okText="删除"
                    cancelText="取消"
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button type="link" size="small" danger>
                      删除
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <OidcProviderModal
        open={editing !== null}
        row={editing?.row}
        onSaved={refresh}
        onClose={() => setEditing(null)}
      />
    </PageContainer>
  );
}
