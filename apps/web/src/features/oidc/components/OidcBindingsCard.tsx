import type { UserInfo } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, List, Popconfirm, Tag, Typography } from "antd";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { oidcBindingsQuery, oidcKeys, oidcProvidersQuery, startOidcBind, unbindOidc } from "../oidc.api";

/** The personal centre's third-party sign-in: bind or unbind each enabled provider. */
export function OidcBindingsCard({ user }: { user: UserInfo }) {
  const queryClient = useQueryClient();
  const { data: providers } = useQuery(oidcProvidersQuery());
  const { data: bindings } = useQuery(oidcBindingsQuery());
  const bind = useMutation({ mutationFn: startOidcBind });
  const unbind = useMutation({
    mutationFn: unbindOidc,
    onSuccess: async () => {
      feedback.success("已解绑");
      await queryClient.invalidateQueries({ queryKey: oidcKeys.bindings() });
    },
  });
  if (!providers?.length && !bindings?.length) return null;
  const rows = [
    ...(providers ?? []).map((p) => ({ id: p.id, name: p.name })),
    ...(bindings ?? [])
      .filter((b) => !providers?.some((p) => p.id === b.provider_id))
      .map((b) => ({ id: b.provider_id, name: b.provider })),
  ];
  return (
    <Card title="第三方账号">
      {!user.has_password ? (
        <Typography.Paragraph type="secondary">
          账号尚未设置密码：绑定手机号后可通过「忘记密码」设置。
        </Typography.Paragraph>
      ) : null}
      <List
        dataSource={rows}
        renderItem={(p) => {
          const bound = bindings?.find((b) => b.provider_id === p.id);
          return (
            <List.Item
              actions={[
                bound ? (
                  <Popconfirm
                    key="unbind"
                    title={`解绑 ${p.name}？`}
                    okText="解绑"
                    cancelText="取消"
                    onConfirm={() => unbind.mutateAsync(p.id)}
                  >
                    <Button size="small" danger>
                      解绑
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button
                    key="bind"
                    size="small"
                    type="primary"
                    loading={bind.isPending && bind.variables === p.id}
                    onClick={() => bind.mutate(p.id)}
                  >
                    绑定
                  </Button>
                ),
              ]}
            >
              <List.Item.Meta
                title={p.name}
                description={bound ? `绑定于 ${formatTime(bound.created_at)}` : "未绑定"}
              />
              {bound ? <Tag color="green">已绑定</Tag> : null}
            </List.Item>
          );
        }}
      />
    </Card>
  );
}
