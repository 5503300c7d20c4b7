import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Form, Input } from "antd";
import { useNavigate, useSearchParams } from "react-router";
import { NewPasswordFields } from "@/components/NewPasswordFields";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { fieldRules } from "@/lib/rules";
import { register } from "../auth.api";
import { AuthCard } from "../components/AuthCard";
import { AuthLink } from "../components/AuthLink";
import { PhoneCodeFields } from "../components/PhoneCodeFields";
import { startSession } from "../session";

interface RegisterForm {
  phone: string;
  code: string;
  password: string;
  confirm: string;
  invite_code?: string;
}

/** /reg: phone with an SMS code, password, optional invite code (prefilled from ?invite=). */
export function RegisterPage() {
  const [form] = Form.useForm<RegisterForm>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();

  const mutation = useMutation({
    mutationFn: register,
    meta: { silentError: true },
    onSuccess: (result) => {
      startSession(queryClient, result.token);
      feedback.success("注册成功");
      void navigate("/dashboard", { replace: true });
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <AuthCard title="注册" subtitle="注册账号，几分钟内开通你的第一条隧道">
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        initialValues={{ invite_code: params.get("invite") ?? "" }}
        onFinish={({ phone, code, password, invite_code }) =>
          mutation.mutate({ phone, code, password, invite_code: invite_code?.trim() || undefined })
        }
      >
        <PhoneCodeFields
          form={form}
          scene="register"
          codeId="register-code"
          phonePlaceholder="请输入手机号"
          codePlaceholder="6 位数字"
        />
        <NewPasswordFields label="密码" placeholder="8-64 位" confirmPlaceholder="再次输入密码" />
        <Form.Item name="invite_code" label="邀请码（选填）" rules={fieldRules("邀请码", { length: { max: 32 } })}>
          <Input placeholder="没有可不填" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          注册
        </Button>
      </Form>
      <div className="auth-links">
        <span>
          已有账号？
          <AuthLink to="/login" go={(p) => void navigate(p)}>
            立即登录
          </AuthLink>
        </span>
      </div>
    </AuthCard>
  );
}
