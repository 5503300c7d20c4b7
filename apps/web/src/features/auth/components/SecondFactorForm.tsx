import { Button, Form, type FormInstance, Input } from "antd";
import { useState } from "react";
import { ApiError } from "@/api/transport";
import { feedback } from "@/lib/feedback";
import { putFieldError } from "@/lib/field-error";
import { fieldRules } from "@/lib/rules";
import { verifySecondFactor } from "../login.requests";
import { secondFactorWithPasskey } from "../passkey.requests";

export interface SecondFactorFormProps {
  /** the challenge of the password step's 30006 answer */
  challenge: string;
  onSignedIn: (token: string) => void;
  /** back to the password (the challenge expired or was spent) */
  onRestart: () => void;
  /** the account has TOTP: the code field (absent: shown, as before passkeys) */
  totp?: boolean;
  /** the account has a passkey: a button that passes the step with it */
  passkey?: boolean;
}

/**
 * A failed second step: an expired or spent challenge goes back to the password, a wrong code is
 * shown on its field, anything else as a message.
 */
export function showStepError(form: FormInstance, error: unknown, onRestart: () => void): void {
  if (error instanceof ApiError && error.field === "challenge") {
    feedback.error(error.message);
    onRestart();
  } else if (!putFieldError(form, error)) feedback.error(error instanceof Error ? error.message : "验证失败");
}

/** The sign-in's second step: a code from the authenticator app, or a recovery code. */
export function SecondFactorForm({
  challenge,
  onSignedIn,
  onRestart,
  totp = true,
  passkey = false,
}: SecondFactorFormProps) {
  const [form] = Form.useForm<{ code: string }>();
  const [pending, setPending] = useState(false);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const withPasskey = async () => {
    setPasskeyPending(true);
    try {
      const { token } = await secondFactorWithPasskey(challenge);
      onSignedIn(token);
    } catch (error) {
      setPasskeyPending(false);
      showStepError(form, error, onRestart);
    }
  };
  const submit = async ({ code }: { code: string }) => {
    setPending(true);
    try {
      const { token } = await verifySecondFactor({ challenge, code: code.trim() });
      onSignedIn(token);
    } catch (error) {
      setPending(false);
      showStepError(form, error, onRestart);
    }
  };
  return (
    <Form form={form} layout="vertical" size="large" requiredMark={false} onFinish={submit}>
      {passkey ? (
        <Button
          type={totp ? "default" : "primary"}
          block
          loading={passkeyPending}
          onClick={() => void withPasskey()}
          style={{ marginBottom: 16 }}
        >
          使用通行密钥验证
        </Button>
      ) : null}
      {totp ? (
        <>
          <Form.Item
            name="code"
            label="两步验证码"
            extra="打开验证器应用查看 6 位验证码；验证器不可用时可输入一个恢复码"
            rules={fieldRules("验证码", { required: true })}
          >
            <Input autoComplete="one-time-code" inputMode="numeric" autoFocus maxLength={32} placeholder="6 位验证码" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending}>
            验证并登录
          </Button>
        </>
      ) : null}
      <Button type="link" block onClick={onRestart} style={{ marginTop: 8 }}>
        返回重新登录
      </Button>
    </Form>
  );
}
