import { type PasskeyInfo, PasskeyName } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Modal, Space, Typography } from "antd";
import { useState } from "react";
import { timeColumn } from "@/components/ListColumns";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { fieldRules, schemaRule } from "@/lib/rules";
import { mfaStatusQuery, securityKeys } from "../account.api";
import { addPasskey, deletePasskey, passkeyKeys, passkeysQuery, renamePasskey } from "../passkeys.api";

type Step = { kind: "add" } | { kind: "rename"; passkey: PasskeyInfo } | { kind: "delete"; passkey: PasskeyInfo };
type Values = { name?: string; code?: string; password?: string };

const TITLES: Record<Step["kind"], string> = { add: "添加通行密钥", rename: "重命名通行密钥", delete: "删除通行密钥" };

const TRANSPORT: Record<string, string> = {
  internal: "本机",
  hybrid: "手机扫码",
  usb: "USB 安全密钥",
  nfc: "NFC",
  ble: "蓝牙",
};

/** 通行密钥: the account's passkeys (sign in without a password, or as the second step), added, renamed, deleted. */
export function PasskeysCard() {
  const queryClient = useQueryClient();
  const { data, isLoading } = useQuery(passkeysQuery());
  const { data: mfa } = useQuery(mfaStatusQuery());
  const [step, setStep] = useState<Step>();
  const [form] = Form.useForm<Values>();
  const close = () => {
    setStep(undefined);
    form.resetFields();
  };
  const submit = useMutation({
    mutationFn: async (v: Values) => {
      if (step?.kind === "add") await addPasskey(v.name?.trim() ?? "");
      else if (step?.kind === "rename") await renamePasskey(step.passkey.id, v.name?.trim() ?? "");
      else if (step?.kind === "delete") {
        const code = v.code?.trim() || undefined;
        await deletePasskey(step.passkey.id, { code, password: code ? undefined : v.password });
      }
    },
    meta: { silentError: true },
    onSuccess: () => {
      feedback.success(
        step?.kind === "add" ? "已添加通行密钥" : step?.kind === "rename" ? "已重命名" : "已删除通行密钥",
      );
      void queryClient.invalidateQueries({ queryKey: passkeyKeys.list() });
      void queryClient.invalidateQueries({ queryKey: securityKeys.mfa() });
      close();
    },
    onError: (error) => {
      // A refusal of the browser or the server's verification has no field of the form: a message.
      if (error instanceof Error && !("field" in error && error.field)) feedback.error(error.message);
      else showFormError(form, error, { credential: "name" });
    },
  });

  const columns: ResponsiveColumns<PasskeyInfo> = [
    { title: "名称", role: "title", dataIndex: "name" },
    {
      title: "类型",
      priority: 3,
      key: "transports",
      render: (_, r) => r.transports.map((t) => TRANSPORT[t] ?? t).join("、") || "—",
    },
    timeColumn("添加时间", "created_at", { priority: 2, width: 180 }),
    {
      title: "最近使用",
      priority: 2,
      dataIndex: "last_used_at",
      width: 180,
      render: (v: string | null) => (v ? formatTime(v) : "从未使用"),
    },
    {
      title: "操作",
      key: "actions",
      width: 150,
      render: (_, r) => (
        <Space>
          <Button size="small" onClick={() => setStep({ kind: "rename", passkey: r })}>
            重命名
          </Button>
          <Button size="small" danger onClick={() => setStep({ kind: "delete", passkey: r })}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title="通行密钥"
      extra={
        <Button type="primary" onClick={() => setStep({ kind: "add" })}>
          添加通行密钥
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        用本机的指纹、面容或 PIN（或手机、安全密钥）登录，无需输入密码；也可在两步验证时代替验证码。
      </Typography.Paragraph>
      <ResponsiveTable rowKey="id" columns={columns} dataSource={data ?? []} loading={isLoading} pagination={false} />
      <Modal
        open={!!step}
        title={step ? TITLES[step.kind] : undefined}
        onCancel={close}
        destroyOnHidden
        okText={step?.kind === "add" ? "下一步" : step?.kind === "delete" ? "删除" : "保存"}
        okButtonProps={{ danger: step?.kind === "delete", loading: submit.isPending }}
        cancelText="取消"
        onOk={form.submit}
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={step?.kind === "rename" ? { name: step.passkey.name } : undefined}
          onFinish={(v) => submit.mutate(v)}
        >
          {step?.kind === "delete" ? (
            <>
              <Typography.Paragraph>删除「{step.passkey.name}」后不能再用它登录。请验证身份：</Typography.Paragraph>
              {mfa?.totp_enabled ? (
                <Form.Item name="code" label="验证码或恢复码（或在下方输入密码）">
                  <Input autoComplete="one-time-code" inputMode="numeric" maxLength={32} placeholder="6 位验证码" />
                </Form.Item>
              ) : null}
              <Form.Item
                name="password"
                label="登录密码"
                rules={mfa?.totp_enabled ? [] : fieldRules("登录密码", { required: true })}
              >
                <Input.Password autoComplete="current-password" />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="name"
              label="名称"
              extra={
                step?.kind === "add"
                  ? "起一个便于辨认的名字，例如「办公室电脑」；下一步按浏览器提示完成验证"
                  : undefined
              }
              rules={[...fieldRules("名称", { required: true }), schemaRule(PasskeyName)]}
            >
              <Input maxLength={40} placeholder="例如：办公室电脑" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Card>
  );
}
