import type { TotpEnrolment } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Modal, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { RecoveryCodesView } from "@/features/auth/components/RecoveryCodesView";
import { TotpSecretView } from "@/features/auth/components/TotpSecretView";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import {
  confirmTotp,
  disableTotp,
  mfaStatusQuery,
  regenerateRecoveryCodes,
  securityKeys,
  startTotp,
} from "../account.api";

type Step =
  | { kind: "enable"; enrolment: TotpEnrolment }
  | { kind: "regenerate" }
  | { kind: "disable" }
  | { kind: "codes"; codes: string[] };

const TITLES: Record<Step["kind"], string> = {
  enable: "启用两步验证",
  regenerate: "重新生成恢复码",
  disable: "停用两步验证",
  codes: "恢复码",
};

/** 两步验证: TOTP on or off, the recovery codes (shown once), regenerating them. */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const { data: status } = useQuery(mfaStatusQuery());
  const [step, setStep] = useState<Step>();
  const [form] = Form.useForm<{ code?: string; password?: string }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKeys.mfa() });
  const close = () => {
    setStep(undefined);
    form.resetFields();
  };

  const start = useMutation({
    mutationFn: startTotp,
    onSuccess: (enrolment) => setStep({ kind: "enable", enrolment }),
  });
  const submit = useMutation({
    mutationFn: async (v: { code?: string; password?: string }) => {
      const code = v.code?.trim() || undefined;
      if (step?.kind === "enable") return (await confirmTotp({ code: code ?? "" })).recovery_codes;
      if (step?.kind === "regenerate") return (await regenerateRecoveryCodes({ code: code ?? "" })).recovery_codes;
      await disableTotp({ code, password: code ? undefined : v.password });
      return null;
    },
    meta: { silentError: true },
    onSuccess: (codes) => {
      void refresh();
      form.resetFields();
      if (codes) setStep({ kind: "codes", codes });
      else {
        feedback.success("已停用两步验证");
        setStep(undefined);
      }
    },
    onError: (error) => showFormError(form, error),
  });

  if (!status) return null;
  return (
    <Card title="两步验证">
      {status.totp_enabled ? (
        <Space orientation="vertical">
          <span>
            <Tag color="success">已启用</Tag>
            启用于 {status.enabled_at ? formatTime(status.enabled_at) : "—"}，剩余恢复码 {status.recovery_codes_left} 个
          </span>
          <Space wrap>
            <Button onClick={() => setStep({ kind: "regenerate" })}>重新生成恢复码</Button>
            <Button danger disabled={status.required} onClick={() => setStep({ kind: "disable" })}>
              停用
            </Button>
          </Space>
          {status.required ? (
            <Typography.Text type="secondary">本站要求管理人员使用两步验证，不能停用。</Typography.Text>
          ) : null}
        </Space>
      ) : (
        <Space orientation="vertical">
          <span>
            <Tag>未启用</Tag>
            登录时除密码外还需输入验证器应用上的 6 位验证码，密码泄露也无法登录您的账号。
          </span>
          <Button type="primary" loading={start.isPending} onClick={() => start.mutate()}>
            启用两步验证
          </Button>
        </Space>
      )}
      <Modal
        open={!!step}
        title={step ? TITLES[step.kind] : undefined}
        onCancel={close}
        destroyOnHidden
        footer={
          step?.kind === "codes" ? (
            <Button type="primary" onClick={close}>
              我已保存
            </Button>
          ) : (
            <Space>
              <Button onClick={close}>取消</Button>
              <Button type="primary" danger={step?.kind === "disable"} loading={submit.isPending} onClick={form.submit}>
                {step?.kind === "disable" ? "停用" : "确认"}
              </Button>
            </Space>
          )
        }
      >
        {step?.kind === "codes" ? (
          <RecoveryCodesView codes={step.codes} />
        ) : step ? (
          <>
            {step.kind === "enable" ? <TotpSecretView secret={step.enrolment.secret} uri={step.enrolment.uri} /> : null}
            <Form form={form} layout="vertical" onFinish={(v) => submit.mutate(v)} style={{ marginTop: 16 }}>
              <Form.Item
                name="code"
                label={step.kind === "disable" ? "验证码或恢复码（或在下方输入密码）" : "验证器上的 6 位验证码"}
                rules={step.kind === "disable" ? [] : fieldRules("验证码", { required: true })}
              >
                <Input autoComplete="one-time-code" inputMode="numeric" maxLength={32} placeholder="6 位验证码" />
              </Form.Item>
              {step.kind === "disable" ? (
                <Form.Item name="password" label="登录密码">
                  <Input.Password autoComplete="current-password" />
                </Form.Item>
              ) : null}
            </Form>
          </>
        ) : null}
      </Modal>
    </Card>
  );
}
