import type { LoginBody } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, Input } from "antd";
import { useLocation, useNavigate } from "react-router";
import { OidcLoginButtons } from "@/features/oidc/components/OidcLoginButtons";
import { showFormError } from "@/lib/form-error";
import { fieldRules, phoneRules } from "@/lib/rules";
import { login } from "../auth.api";
import { AuthCard } from "../components/AuthCard";
import { AuthLink } from "../components/AuthLink";
import { startSession } from "../session";

/** /login: phone and password, or a configured third-party provider (its errors are shown here). */
export function LoginPage() {
  const [form] = Form.useForm<LoginBody>();
  const navigate = useNavigate();
  const oidcError = (useLocation().state as { oidcError?: unknown } | null)?.oidcError;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: login,
    meta: { silentError: true },
    onSuccess: (result) => {
      startSession(queryClient, result.token);
      void navigate("/dashboard", { replace: true });
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <AuthCard title="登录" subtitle="使用手机号和密码登录控制台">
      {typeof oidcError === "string" ? (
        <Alert type="error" showIcon message={oidcError} style={{ marginBottom: 16 }} role="alert" />
      ) : null}
      <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={(v) => mutation.mutate(v)}>
        <Form.Item name="phone" label="手机号" rules={phoneRules()}>
          <Input inputMode="numeric" autoComplete="username" maxLength={11} placeholder="请输入手机号" />
        </Form.Item>
        <Form.Item name="password" label="密码" rules={fieldRules("密码", { required: true })}>
          <Input.Password autoComplete="current-password" placeholder="请输入密码" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          登录
        </Button>
      </Form>
      <OidcLoginButtons />
      <div className="auth-links">
        <AuthLink to="/reg">注册账号</AuthLink>
        <AuthLink to="/reset">忘记密码？</AuthLink>
      </div>
    </AuthCard>
  );
}
