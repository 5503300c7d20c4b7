import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Typography } from "antd";
import { PhoneCodeFields } from "@/features/auth/components/PhoneCodeFields";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { accountKeys, changePhone } from "../account.api";

interface PhoneForm {
  phone: string;
  code: string;
}

/** Change the sign-in phone: the code goes to the new number (scene "phone"). */
export function ChangePhoneCard({ currentPhone }: { currentPhone: string }) {
  const [form] = Form.useForm<PhoneForm>();
  const queryClient = useQueryClient();

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

  return (
    <Card title="更换手机号">
      <Typography.Paragraph type="secondary">
        当前手机号 {currentPhone}。更换后请使用新手机号登录。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => mutation.mutate(values)}>
        <PhoneCodeFields form={form} scene="phone" codeId="phone-code" phoneLabel="新手机号" />
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          更换手机号
        </Button>
      </Form>
    </Card>
  );
}
