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
      feedback.success(currentPhone ? "手机号已更换" : "手机号已绑定");
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <Card title={currentPhone ? "更换手机号" : "绑定手机号"}>
      <Typography.Paragraph type={currentPhone ? "secondary" : "warning"}>
        {currentPhone
          ? `当前手机号 ${currentPhone}。更换后请使用新手机号登录。`
          : "账号尚未绑定手机号：绑定后才能购买套餐和创建隧道。"}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(values) => mutation.mutate(values)}>
        <PhoneCodeFields
          form={form}
          scene="phone"
          codeId="phone-code"
          phoneLabel={currentPhone ? "新手机号" : "手机号"}
        />
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {currentPhone ? "更换手机号" : "绑定手机号"}
        </Button>
      </Form>
    </Card>
  );
}
