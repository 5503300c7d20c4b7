import type { SmsBody } from "@burrow/contract";
import { useMutation } from "@tanstack/react-query";
import { Form, type FormInstance, Input, Space } from "antd";
import { SmsCodeButton } from "@/components/SmsCodeButton";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { phoneRules, smsCodeRules } from "@/lib/rules";
import { sendSmsCode } from "../auth.api";

export interface PhoneCodeFieldsProps {
  /** the form holding the `phone` and `code` fields; SMS errors are shown on its fields */
  form: FormInstance;
  /** what the code is for (POST /auth/sms scene) */
  scene: SmsBody["scene"];
  /** id of the code input (unique on the page) */
  codeId: string;
  phoneLabel?: string;
  phonePlaceholder?: string;
  codePlaceholder?: string;
}

/**
 * The phone number and SMS-code fields with the "获取验证码" button, shared by sign-up, password
 * reset and phone change: the button validates the phone field, then asks for a code for `scene`.
 */
export function PhoneCodeFields({
  form,
  scene,
  codeId,
  phoneLabel = "手机号",
  phonePlaceholder,
  codePlaceholder,
}: PhoneCodeFieldsProps) {
  const sms = useMutation({
    mutationFn: sendSmsCode,
    meta: { silentError: true },
    onSuccess: () => feedback.success("验证码已发送"),
    onError: (error) => showFormError(form, error),
  });
  const sendCode = async () => {
    const { phone } = await form.validateFields(["phone"]);
    await sms.mutateAsync({ phone, scene });
  };

  return (
    <>
      <Form.Item name="phone" label={phoneLabel} rules={phoneRules(phoneLabel)}>
        <Input inputMode="numeric" autoComplete="tel" maxLength={11} placeholder={phonePlaceholder} />
      </Form.Item>
      <Form.Item label="验证码" required>
        <Space.Compact block>
          <Form.Item name="code" noStyle rules={smsCodeRules()}>
            <Input
              id={codeId}
              aria-label="验证码"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder={codePlaceholder}
            />
          </Form.Item>
          <SmsCodeButton send={sendCode} />
        </Space.Compact>
      </Form.Item>
    </>
  );
}
