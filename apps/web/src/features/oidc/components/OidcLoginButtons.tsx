import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Divider, Space } from "antd";
import { oidcProvidersQuery, startOidcLogin } from "../oidc.api";

/** "使用 … 登录" for every enabled provider; nothing when none is configured. */
export function OidcLoginButtons() {
  const { data: providers } = useQuery(oidcProvidersQuery());
  const start = useMutation({ mutationFn: startOidcLogin });
  if (!providers?.length) return null;
  return (
    <>
      <Divider plain>其他登录方式</Divider>
      <Space direction="vertical" style={{ width: "100%" }}>
        {providers.map((p) => (
          <Button
            key={p.id}
            block
            loading={start.isPending && start.variables === p.id}
            onClick={() => start.mutate(p.id)}
          >
            使用 {p.name} 登录
          </Button>
        ))}
      </Space>
    </>
  );
}
