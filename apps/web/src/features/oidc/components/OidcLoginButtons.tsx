import type { OidcProviderPublic } from "@burrow/contract";
import { Button, Divider, Space } from "antd";
import { useEffect, useState } from "react";
import { fetchOidcProviders, startOidcSignIn } from "@/features/auth/login.requests";
import { feedback } from "@/lib/feedback";
import { rememberIntent } from "../intent";

/**
 * "使用 … 登录" for every enabled provider; nothing when none is configured. On /login's light
 * path, so it calls through the client's fetch core (login.requests.ts), not React Query.
 */
export function OidcLoginButtons() {
  const [providers, setProviders] = useState<OidcProviderPublic[]>([]);
  const [starting, setStarting] = useState<number | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    fetchOidcProviders(ctl.signal).then(setProviders, () => undefined);
    return () => ctl.abort();
  }, []);
  const start = async (id: number) => {
    setStarting(id);
    try {
      const { url } = await startOidcSignIn(id);
      rememberIntent("login");
      window.location.assign(url);
    } catch (error) {
      setStarting(null);
      feedback.error(error instanceof Error ? error.message : "无法开始第三方登录");
    }
  };
  if (!providers.length) return null;
  return (
    <>
      <Divider plain>其他登录方式</Divider>
      <Space direction="vertical" style={{ width: "100%" }}>
        {providers.map((p) => (
          <Button key={p.id} block loading={starting === p.id} onClick={() => void start(p.id)}>
            使用 {p.name} 登录
          </Button>
        ))}
      </Space>
    </>
  );
}
