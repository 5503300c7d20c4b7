import { useMutation } from "@tanstack/react-query";
import { Button, Form, Input, Space } from "antd";
import { Link, useNavigate } from "react-router";
import { SmsCodeButton } from "@/components/SmsCodeButton";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { confirmRules, passwordRules, phoneRules, smsCodeRules } from "@/lib/rules";
import { resetPassword, sendSmsCode } from "../auth.api";
import { AuthCard } from "../components/AuthCard";

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

  const sms = useMutation({
    mutationFn: sendSmsCode,
    meta: { silentError: true },
    onSuccess: () => feedback.success("验证码已发送"),
    onError: (error) => showFormError(form, error),
  });
  const mutation = useMutation({
    mutationFn: resetPassword,
    meta: { silentError: true },
    onSuccess: () => {
      feedback.success("密码已重置，请使用新密码登录");
      void navigate("/login", { replace: true });
    },
    onError: (error) => showFormError(form, error),
  });

  const sendCode = async () => {
    const { phone } = await form.validateFields(["phone"]);
    await sms.mutateAsync({ phone, scene: "reset" });
  };

  return (
    <AuthCard title="重置密码" subtitle="验证手机号后设置新密码">
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={({ phone, code, password }) => mutation.mutate({ phone, code, password })}
      >
        <Form.Item name="phone" label="手机号" rules={phoneRules()}>
          <Input inputMode="numeric" autoComplete="tel" maxLength={11} placeholder="请输入手机号" />
        </Form.Item>
        <Form.Item label="验证码" required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={smsCodeRules()}>
              <Input
                id="reset-code"
                aria-label="验证码"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="6 位数字"
              />
            </Form.Item>
            <SmsCodeButton send={sendCode} />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="password" label="新密码" rules={passwordRules("新密码")}>
          <Input.Password autoComplete="new-password" placeholder="8-64 位" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认新密码"
          dependencies={["password"]}
          rules={confirmRules("password", "新密码")}
        >
          <Input.Password autoComplete="new-password" placeholder="再次输入新密码" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          重置密码
        </Button>
      </Form>
      <div className="auth-links">
        <Link to="/login">返回登录</Link>
      </div>
    </AuthCard>
  );
}
