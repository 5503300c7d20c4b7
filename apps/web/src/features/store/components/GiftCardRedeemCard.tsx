import { fenToYuan, Kind, type RedeemResult } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Form, Input, Space, Typography } from "antd";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";

import { fieldRules } from "@/lib/rules";
import { redeemGiftCard, refreshAfterPayment } from "../store.api";

/** What a redeemed card did, for the toast. */
export function redeemText(r: RedeemResult): string {
  if (r.type === Kind.Balance) return `兑换成功，¥${fenToYuan(r.card_value)} 已到账`;
  return `兑换成功，已开通「${r.plan_name ?? "套餐"}」${r.cycle_number} 个月`;
}

/** Redeems a gift card: a balance card credits the balance, a plan card opens or extends a plan. */
export function GiftCardRedeemCard() {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ card_number: string }>();
  const redeem = useMutation({
    mutationFn: redeemGiftCard,
    meta: { silentError: true },
    onSuccess: async (res) => {
      feedback.success(redeemText(res));
      form.resetFields();
      await refreshAfterPayment(queryClient);
    },
    onError: (error) => showFormError(form, error),
  });

  return (
    <Card title="礼品卡兑换">
      <Typography.Paragraph type="secondary">
        余额卡兑换后金额直接计入账户余额；套餐卡兑换后立即开通或顺延对应套餐。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => redeem.mutate(v.card_number.trim())}>
        <Form.Item label="卡号" required>
          <Space.Compact block>
            <Form.Item name="card_number" noStyle rules={fieldRules("卡号", { required: true, length: { max: 40 } })}>
              <Input aria-label="卡号" placeholder="请输入礼品卡卡号" allowClear />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={redeem.isPending}>
              兑换
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </Card>
  );
}
