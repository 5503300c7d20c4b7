import type { OidcCallbackBody, OidcCallbackResult } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Result, Spin, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { SiteFooter } from "@/components/SiteFooter";
import { accountKeys } from "@/features/account/account.api";
import { AuthCard } from "@/features/auth/components/AuthCard";
import { PhoneCodeFields } from "@/features/auth/components/PhoneCodeFields";
import { startSession } from "@/features/auth/session";
import { siteQuery } from "@/features/shell/shell.api";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { finishOidc, linkOidc, oidcKeys, registerOidc, takeIntent } from "../oidc.api";

const FIELDS = ["state", "code", "iss", "error", "error_description", "session_state"] as const;
type Unlinked = Extract<OidcCallbackResult, { kind: "unlinked" }>;

/**
 * /callback/auth: where the provider sends the browser back. Posts its answer to the server once,
 * then signs in, reports a bind, or (an identity bound to no account yet) offers to link it to an
 * existing account by SMS or to create one. Every error lands on /login (or the personal centre
 * for a bind) with the server's message.
 */
export function OidcCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: site } = useQuery(siteQuery());
  const [unlinked, setUnlinked] = useState<Unlinked | null>(null);
  const sent = useRef(false);

  const signIn = (token: string) => {
    startSession(queryClient, token);
    void navigate("/dashboard", { replace: true });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    // Once: the state is single use, and StrictMode runs effects twice.
    if (sent.current) return;
    sent.current = true;
    const intent = takeIntent();
    const body: Partial<OidcCallbackBody> = {};
    for (const f of FIELDS) {
      const v = params.get(f);
      if (v !== null) body[f] = v;
    }
    const fail = (message: string) => {
      if (intent === "bind") {
        feedback.error(message);
        void navigate("/account/info", { replace: true });
      } else void navigate("/login", { replace: true, state: { oidcError: message } });
    };
    if (!body.state) {
      fail(body.error ? "第三方登录失败，请重新发起" : "登录请求无效或已过期，请重新发起第三方登录");
      return;
    }
    finishOidc(body as OidcCallbackBody).then(
      async (r) => {
        if (r.kind === "session") signIn(r.token);
        else if (r.kind === "bound") {
          feedback.success(`已绑定 ${r.provider}`);
          await queryClient.invalidateQueries({ queryKey: oidcKeys.bindings() });
          void navigate("/account/info", { replace: true });
        } else setUnlinked(r);
      },
      (err: Error) => fail(err.message),
    );
  }, []);

  return (
    <div className="public-page">
      <main className="public-container">
        {unlinked ? (
          <FirstSignIn pending={unlinked} onSignedIn={signIn} />
        ) : (
          <div style={{ padding: 80, textAlign: "center" }}>
            <Spin size="large" tip="正在完成第三方登录…">
              <div style={{ height: 60 }} />
            </Spin>
          </div>
        )}
      </main>
      <SiteFooter site={site} />
    </div>
  );
}

/** An identity bound to no account yet: link it to an account by SMS (scene login), or create one. */
function FirstSignIn({ pending, onSignedIn }: { pending: Unlinked; onSignedIn: (token: string) => void }) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ phone: string; code: string }>();
  const link = useMutation({
    mutationFn: (v: { phone: string; code: string }) => linkOidc({ ticket: pending.ticket, ...v }),
    meta: { silentError: true },
    onSuccess: (r) => onSignedIn(r.token),
    onError: (error) => showFormError(form, error),
  });
  const create = useMutation({
    mutationFn: () => registerOidc(pending.ticket),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      onSignedIn(r.token);
    },
  });
  return (
    <AuthCard title={`使用 ${pending.provider} 登录`} subtitle="该第三方账号尚未绑定控制台账号">
      <Typography.Title level={5}>已有账号：验证手机号后绑定</Typography.Title>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => link.mutate(v)}>
        <PhoneCodeFields form={form} scene="login" codeId="oidc-link-code" phonePlaceholder="已注册的手机号" />
        <Button type="primary" htmlType="submit" block loading={link.isPending}>
          绑定并登录
        </Button>
      </Form>
      <Result
        style={{ padding: "24px 0 0" }}
        icon={null}
        subTitle="没有账号？可以直接创建，购买套餐或创建隧道前需先绑定手机号。"
        extra={
          <Button block loading={create.isPending} onClick={() => create.mutate()}>
            创建新账号
          </Button>
        }
      />
    </AuthCard>
  );
}
