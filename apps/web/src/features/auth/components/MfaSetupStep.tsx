import type { TotpEnrolment } from "@burrow/contract";
import { Alert, Button, Form, Input, Spin } from "antd";
import { useEffect, useState } from "react";
import { feedback } from "@/lib/feedback";
import { fieldRules } from "@/lib/rules";
import { confirmMfaSetup, startMfaSetup } from "../login.requests";
import { RecoveryCodesView } from "./RecoveryCodesView";
import { showStepError } from "./SecondFactorForm";
import { TotpSecretView } from "./TotpSecretView";

export interface MfaSetupStepProps {
  /** the setup challenge of the password step's 30006 answer */
  challenge: string;
  onSignedIn: (token: string) => void;
  onRestart: () => void;
}

/**
 * A Manager or support staff member the site requires to use a second factor and who has none:
 * enrols here, between the password and the first session (STAFF_MFA_REQUIRED).
 */
export default function MfaSetupStep({ challenge, onSignedIn, onRestart }: MfaSetupStepProps) {
  const [form] = Form.useForm<{ code: string }>();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [done, setDone] = useState<{ token: string; codes: string[] }>();
  const [pending, setPending] = useState(false);
  useEffect(() => {
    startMfaSetup(challenge).then(setEnrolment, (error: unknown) => {
      feedback.error(error instanceof Error ? error.message : "无法开始设置");
      onRestart();
    });
  }, [challenge, onRestart]);

  const confirm = async ({ code }: { code: string }) => {
    setPending(true);
    try {
      const r = await confirmMfaSetup({ challenge, code: code.trim() });
      setDone({ token: r.token, codes: r.recovery_codes });
    } catch (error) {
      setPending(false);
      showStepError(form, error, onRestart);
    }
  };

  if (done)
    return (
      <div>
        <RecoveryCodesView codes={done.codes} />
        <Button type="primary" block size="large" style={{ marginTop: 16 }} onClick={() => onSignedIn(done.token)}>
          我已保存，进入控制台
        </Button>
      </div>
    );
  if (!enrolment) return <Spin />;
  return (
    <div>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message="本站要求管理员和客服使用两步验证"
        description="设置完成后才能进入管理后台，此后每次登录都需输入验证器上的验证码。"
      />
      <TotpSecretView secret={enrolment.secret} uri={enrolment.uri} />
      <Form
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={confirm}
        style={{ marginTop: 16 }}
      >
        <Form.Item name="code" label="验证器上的 6 位验证码" rules={fieldRules("验证码", { required: true })}>
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} placeholder="6 位验证码" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={pending}>
          启用两步验证并登录
        </Button>
      </Form>
    </div>
  );
}
