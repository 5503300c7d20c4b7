import {
  DELETION_CONFIRM_TEXT,
  DELETION_COOL_OFF_DAYS,
  EXPORT_SIGN_IN_MINUTES,
  EXPORTS_PER_HOUR,
  fenToYuan,
  type RequestDeletionBody,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Col, Form, Input, Row, Typography } from "antd";
import { PageContainer } from "@/components/PageContainer";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import {
  deletionPrecheckQuery,
  downloadMyData,
  myDeletionQuery,
  requestDeletion,
  requestDeletionWithPasskey,
} from "../leaving.api";

/** 导出我的数据: one JSON file of everything the account holds about its owner. */
function ExportCard() {
  const save = useMutation({ mutationFn: downloadMyData, onSuccess: () => feedback.success("数据已导出") });
  return (
    <Card title="导出我的数据">
      <Typography.Paragraph type="secondary">
        包含账户资料、登录记录与设备、隧道、域名、订单、发票、余额流水、工单与消息、API
        令牌信息和实名认证状态（证件号仅显示掩码）， 不含密码、frp 访问密钥等凭据。为保护账户，需在登录后{" "}
        {EXPORT_SIGN_IN_MINUTES} 分钟内导出，每小时最多 {EXPORTS_PER_HOUR} 次。
      </Typography.Paragraph>
      <Button type="primary" loading={save.isPending} onClick={() => save.mutate()}>
        导出数据（JSON）
      </Button>
    </Card>
  );
}

type DeletionForm = RequestDeletionBody;

/** 注销账号: password, second factor when enabled (a code or a passkey), the typed confirmation, the forfeit of money left. */
function DeletionCard() {
  const [form] = Form.useForm<DeletionForm>();
  const queryClient = useQueryClient();
  const { data: pending } = useQuery(myDeletionQuery());
  const { data: check } = useQuery(deletionPrecheckQuery());
  const submit = useMutation({
    // With a passkey on the account and no code typed, the device confirms (passkey-only accounts always).
    mutationFn: (v: DeletionForm) => (check?.passkey && !v.code ? requestDeletionWithPasskey(v) : requestDeletion(v)),
    meta: { silentError: true },
    onSuccess: async () => {
      form.resetFields();
      feedback.success("已提交注销申请");
      await queryClient.invalidateQueries({ queryKey: ["leaving"] });
    },
    onError: (error) => showFormError(form, error),
  });
  if (pending)
    return (
      <Card title="注销账号">
        <Typography.Paragraph>
          已于 {formatTime(pending.requested_at)} 申请注销，将于 {formatTime(pending.executes_at)} 删除个人数据。
        </Typography.Paragraph>
      </Card>
    );
  const money = (check?.balance ?? 0) + (check?.affiliate_available ?? 0);
  return (
    <Card title="注销账号">
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={`提交后隧道立即停用，其他设备退出登录；${DELETION_COOL_OFF_DAYS} 天冷静期内登录可撤销。期满后删除手机号、昵称、实名信息、工单内容、域名、设备与令牌等个人数据，订单和发票按会计档案要求匿名保留。`}
      />
      <Form form={form} layout="vertical" onFinish={(v) => submit.mutate(v)}>
        <Form.Item name="password" label="登录密码" rules={fieldRules("登录密码", { required: true })}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        {check?.totp ? (
          <Form.Item
            name="code"
            label="两步验证码"
            rules={fieldRules("两步验证码", { required: !check.passkey })}
            extra={check.passkey ? "也可留空，提交时使用通行密钥验证" : undefined}
          >
            <Input autoComplete="one-time-code" placeholder="验证器中的 6 位数字或恢复码" />
          </Form.Item>
        ) : null}
        {check?.passkey && !check.totp ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="提交时请在设备上验证通行密钥（指纹、面容或 PIN），作为第二重验证"
          />
        ) : null}
        <Form.Item
          name="confirm"
          label={`请输入“${DELETION_CONFIRM_TEXT}”确认`}
          rules={[{ required: true, message: `请输入“${DELETION_CONFIRM_TEXT}”` }]}
        >
          <Input placeholder={DELETION_CONFIRM_TEXT} />
        </Form.Item>
        {money > 0 ? (
          <Form.Item
            name="forfeit"
            valuePropName="checked"
            rules={[
              { validator: (_, v) => (v ? Promise.resolve() : Promise.reject(new Error("请确认放弃余额和返利"))) },
            ]}
          >
            <Checkbox>我确认放弃账户余额和可提现返利共 ¥{fenToYuan(money)}，注销后不予退还</Checkbox>
          </Form.Item>
        ) : null}
        <Button danger type="primary" htmlType="submit" loading={submit.isPending}>
          申请注销
        </Button>
      </Form>
    </Card>
  );
}

/** /account/leaving: the data export and the account's deletion (docs/leaving.md). */
export function LeavingPage() {
  return (
    <PageContainer title="数据导出与注销">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ExportCard />
        </Col>
        <Col xs={24} xl={12}>
          <DeletionCard />
        </Col>
      </Row>
    </PageContainer>
  );
}
