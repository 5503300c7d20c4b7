import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Space, Typography } from "antd";
import { SmsCodeButton } from "@/components/SmsCodeButton";
import { sendSmsCode } from "@/features/auth/auth.api";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { phoneRules, smsCodeRules } from "@/lib/rules";
import { accountKeys, changePhone } from "../account.api";

interface PhoneForm {
  phone: string;
  code: string;
}

/** Change the sign-in phone: the code goes to the new number (scene "phone"). */
export function ChangePhoneCard({ currentPhone }: { currentPhone: string }) {
  const [form] = Form.useForm<PhoneForm>();
  const queryClient = useQueryClient();

  const sms = useMutation({
    mutationFn: sendSmsCode,
    meta: { silentError: true },
    onSuccess: () => feedback.success("验证码已发送"),
    onError: (error) => showFormError(form, error),
  });
  const mutation = useMutation({
    mutationFn: changePhone,
    meta: { silentError: true },
    onSuccess: async () => {
      feedback.success("手机号已更换");
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
    onError: (error) => showFormError(form, error),
  });

  const sendCode = async () => {
    const { phone } = await form.validateFields(["phone"]);
    await sms.mutateAsync({ phone, scene: "phone" });
  };

  return (
    <Card title="更换手机号">
      <Typography.Paragraph type="secondary">
        当前手机号 {currentPhone}。更换后请使用新手机号登录。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => mutation.mutate(values)}>
        <Form.Item name="phone" label="新手机号" rules={phoneRules("新手机号")}>
          <Input inputMode="numeric" autoComplete="tel" maxLength={11} />
        </Form.Item>
        <Form.Item label="验证码" required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={smsCodeRules()}>
              <Input
                id="phone-code"
                aria-label="验证码"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
              />
            </Form.Item>
            <SmsCodeButton send={sendCode} />
          </Space.Compact>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          更换手机号
        </Button>
      </Form>
    </Card>
  );
}
