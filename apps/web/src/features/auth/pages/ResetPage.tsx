import { useMutation } from "@tanstack/react-query";
import { Button, Form } from "antd";
import { useNavigate } from "react-router";
import { NewPasswordFields } from "@/components/NewPasswordFields";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { resetPassword } from "../auth.api";
import { AuthCard } from "../components/AuthCard";
import { AuthLink } from "../components/AuthLink";
import { PhoneCodeFields } from "../components/PhoneCodeFields";

interface ResetForm {
  phone: string;
  code: string;
  password: string;
  confirm: string;
}

/** /reset: a new password, confirmed with an SMS code. */
export function ResetPage() {
  const [form] = Form.useForm<ResetForm>();
  const navigate = useNavigate();

  const mutation = useMutation({
    mutationFn: resetPassword,
    meta: { silentError: true },
    onSuccess: () => {
      feedback.success("密码已重置，请使用新密码登录");
      void navigate("/login", { replace: true });
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <AuthCard title="重置密码" subtitle="验证手机号后设置新密码">
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={({ phone, code, password }) => mutation.mutate({ phone, code, password })}
      >
        <PhoneCodeFields
          form={form}
          scene="reset"
          codeId="reset-code"
          phonePlaceholder="请输入手机号"
          codePlaceholder="6 位数字"
        />
        <NewPasswordFields placeholder="8-64 位" confirmPlaceholder="再次输入新密码" />
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          重置密码
        </Button>
      </Form>
      <div className="auth-links">
        <AuthLink to="/login" go={(p) => void navigate(p)}>
          返回登录
        </AuthLink>
      </div>
    </AuthCard>
  );
}
