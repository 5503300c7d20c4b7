import type { LoginBody, MfaChallengeData } from "@burrow/contract";
import { ErrorCode } from "@burrow/contract/codes";
import { Alert, Button, Form, Input } from "antd";
import { lazy, Suspense, useCallback, useState } from "react";
import { ApiError } from "@/api/transport";
import { OidcLoginButtons } from "@/features/oidc/components/OidcLoginButtons";
import { clearBan, saveBan } from "@/lib/ban";
import { feedback } from "@/lib/feedback";
import { putFieldError } from "@/lib/field-error";
import { fieldRules, phoneRules } from "@/lib/rules";
import { AuthCard } from "../components/AuthCard";
import { AuthLink } from "../components/AuthLink";
import { SecondFactorForm } from "../components/SecondFactorForm";
import { signIn } from "../login.requests";
import { signInWithPasskey } from "../passkey.requests";

export interface LoginPageProps {
  /** starts the session and opens the dashboard */
  onSignedIn: (token: string) => void;
  /** goes to another public page (/reg, /reset) */
  go: (path: string) => void;
  /** an error to show above the form (a third-party sign-in the provider refused) */
  notice?: string;
}

// The staff enrolment draws a QR code: loaded only when a sign-in needs it.
const MfaSetupStep = lazy(() => import("../components/MfaSetupStep"));

/**
 * /login: phone and password, or a configured third-party provider. Free of the router and React
 * Query, so that the first visit's light host (app/login-host.tsx) and the console's router
 * (LoginRoute) render the same page.
 */
export function LoginPage({ onSignedIn, go, notice }: LoginPageProps) {
  const [form] = Form.useForm<LoginBody>();
  const [pending, setPending] = useState(false);
  /** "账号已被封禁：<reason>" when the account is banned (30005) */
  const [banned, setBanned] = useState<string>();
  /** the second step after a right password (30006): a code, or the staff enrolment */
  const [mfa, setMfa] = useState<MfaChallengeData>();
  const restart = useCallback(() => setMfa(undefined), []);
  const [passkeyPending, setPasskeyPending] = useState(false);
  /** Signs in with the phone and password, or (`values` absent) with a passkey the browser holds. */
  const submit = async (values?: LoginBody) => {
    const setBusy = values ? setPending : setPasskeyPending;
    setBusy(true);
    setBanned(undefined);
    try {
      const { token } = values ? await signIn(values) : await signInWithPasskey();
      clearBan();
      onSignedIn(token);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && error.code === ErrorCode.SecondFactorRequired) {
        setMfa(error.data as MfaChallengeData);
      } else if (error instanceof ApiError && error.code === ErrorCode.AccountBanned) {
        // The answer carries the appeal session: kept for the appeal page, never as the console's token.
        saveBan(error.data);
        setBanned(error.message);
      } else if (!putFieldError(form, error)) feedback.error(error instanceof Error ? error.message : "登录失败");
    }
  };

  if (mfa?.setup)
    return (
      <AuthCard title="设置两步验证" subtitle="用验证器应用扫描二维码，再输入显示的验证码">
        <Suspense fallback={null}>
          <MfaSetupStep challenge={mfa.challenge} onSignedIn={onSignedIn} onRestart={restart} />
        </Suspense>
      </AuthCard>
    );
  if (mfa)
    return (
      <AuthCard title="两步验证" subtitle="此账号已启用两步验证">
        <SecondFactorForm
          challenge={mfa.challenge}
          totp={mfa.totp}
          passkey={mfa.passkey}
          onSignedIn={onSignedIn}
          onRestart={restart}
        />
      </AuthCard>
    );
  return (
    <AuthCard title="登录" subtitle="使用手机号和密码登录控制台">
      {notice ? <Alert type="error" showIcon message={notice} style={{ marginBottom: 16 }} role="alert" /> : null}
      {banned ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          message={banned}
          description="如对封禁有异议，可以提交封禁申诉，客服会在工单中回复你。"
          action={
            <Button size="small" type="primary" danger onClick={() => go("/appeal")}>
              封禁申诉
            </Button>
          }
        />
      ) : null}
      <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit}>
        <Form.Item name="phone" label="手机号" rules={phoneRules()}>
          <Input inputMode="numeric" autoComplete="username" maxLength={11} placeholder="请输入手机号" />
        </Form.Item>
        <Form.Item name="password" label="密码" rules={fieldRules("密码", { required: true })}>
          <Input.Password autoComplete="current-password" placeholder="请输入密码" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={pending}>
          登录
        </Button>
      </Form>
      <Button block size="large" loading={passkeyPending} onClick={() => void submit()} style={{ marginTop: 12 }}>
        使用通行密钥登录
      </Button>
      <OidcLoginButtons />
      <div className="auth-links">
        <AuthLink to="/reg" go={go}>
          注册账号
        </AuthLink>
        <AuthLink to="/reset" go={go}>
          忘记密码？
        </AuthLink>
      </div>
    </AuthCard>
  );
}
