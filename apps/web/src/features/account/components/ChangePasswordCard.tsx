import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input } from "antd";
import { useNavigate } from "react-router";
import { NewPasswordFields } from "@/components/NewPasswordFields";
import { endSession } from "@/features/auth/session";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { fieldRules } from "@/lib/rules";
import { clearToken } from "@/lib/token";
import { changePassword } from "../account.api";

interface PasswordForm {
  old_password: string;
  password: string;
  confirm: string;
}

/** Change password; the server then revokes every session, this one included, so the user signs in again. */
export function ChangePasswordCard() {
  const [form] = Form.useForm<PasswordForm>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: changePassword,
    meta: { silentError: true },
    onSuccess: async () => {
      clearToken();
      feedback.success("密码已修改，请使用新密码重新登录");
      await navigate("/login", { replace: true });
      endSession(queryClient);
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <Card title="修改密码">
      <Form
        form={form}
        layout="vertical"
        onFinish={({ old_password, password }) => mutation.mutate({ old_password, password })}
      >
        <Form.Item name="old_password" label="当前密码" rules={fieldRules("当前密码", { required: true })}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields placeholder="8-64 位" />
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          修改密码
        </Button>
      </Form>
    </Card>
  );
}
