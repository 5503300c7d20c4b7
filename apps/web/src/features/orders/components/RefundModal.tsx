import type { AdminOrderDetail, RefundOrderBody } from "@burrow/contract";
import { fenToYuan, yuanToFen } from "@burrow/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, Checkbox, Descriptions, Form, Modal, Typography } from "antd";
import { useEffect } from "react";
import { NumberItem } from "@/components/form/NumberItem";
import { TextItem } from "@/components/form/TextItem";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { phoneText } from "@/lib/format";
import { ordersKeys, refundOrder } from "../orders.api";

interface RefundForm {
  override: boolean;
  /** yuan */
  amount?: number;
  override_reason?: string;
}

export interface RefundModalProps {
  /** the order to refund; null: closed */
  order: AdminOrderDetail | null;
  onClose: () => void;
}

/**
 * The operator's refund dialog: shows what the value model says is refundable and why, and
 * refunds that by default. A larger amount is an explicit override with a reason (audited),
 * never more than the server's max_override.
 */
export function RefundModal({ order, onClose }: RefundModalProps) {
  const [form] = Form.useForm<RefundForm>();
  const queryClient = useQueryClient();
  const override = Form.useWatch("override", form) ?? false;
  const mutation = useMutation({
    mutationFn: refundOrder,
    meta: { silentError: true },
    onSuccess: async (r) => {
      feedback.success(
        `已退款 ¥${fenToYuan(r.refunded)} 到用户余额${r.override ? "（人工调整）" : ""}，当前余额 ¥${fenToYuan(r.balance)}`,
      );
      await queryClient.invalidateQueries({ queryKey: ordersKeys.all });
    },
  });

  useEffect(() => {
    if (order) form.resetFields();
  }, [order, form]);

  const preview = order?.refund;
  const refundable = preview?.refundable ?? 0;
  const maxOverride = preview?.max_override ?? 0;

  const submit = async () => {
    if (!order) return;
    const values = await form.validateFields();
    const body: RefundOrderBody = values.override
      ? {
          trade_id: order.trade_id,
          amount: yuanToFen(values.amount ?? 0),
          override_reason: values.override_reason,
        }
      : { trade_id: order.trade_id };
    try {
      await mutation.mutateAsync(body);
      onClose();
    } catch (error) {
      showFormError(form, error);
    }
  };

  return (
    <Modal
      open={order !== null}
      title="退款到余额？"
      okText="确认退款"
      okButtonProps={{ danger: true, disabled: refundable === 0 && !override }}
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={mutation.isPending}
      forceRender
    >
      {order && preview && (
        <>
          <Typography.Paragraph>
            将订单 {order.trade_id}（{order.name}）退款到用户 {phoneText(order.user.phone)}（UID {order.user.uid}）
            的余额；该订单开通或延长的套餐将被收回，此操作不可撤销。
          </Typography.Paragraph>
          <Descriptions
            size="small"
            column={1}
            bordered
            items={[
              { key: "refundable", label: "按剩余价值可退", children: `¥${fenToYuan(refundable)}` },
              { key: "reason", label: "计算依据", children: preview.reason },
            ]}
          />
          {refundable === 0 && (
            <Alert
              style={{ marginTop: 12 }}
              type="warning"
              showIcon
              message={
                maxOverride > 0
                  ? "该订单已无可退价值；如确需退款，请勾选人工调整并填写原因"
                  : "该订单已无可退价值（例如已作为升级抵扣转出），不能退款"
              }
            />
          )}
        </>
      )}
      <Form form={form} layout="vertical" style={{ marginTop: 16 }} initialValues={{ override: false }}>
        <Form.Item name="override" valuePropName="checked" noStyle>
          <Checkbox disabled={maxOverride <= refundable}>
            人工调整退款金额（超出可退金额，须填写原因并记入审计）
          </Checkbox>
        </Form.Item>
        {override && (
          <>
            <NumberItem
              name="amount"
              label="退款金额（元）"
              ruleLabel="退款金额"
              style={{ marginTop: 12 }}
              extra={`最多 ¥${fenToYuan(maxOverride)}（已转出的价值不能再次退还）`}
              required
              min={0.01}
              max={maxOverride / 100}
              precision={2}
              step={1}
            />
            <TextItem
              name="override_reason"
              label="调整原因"
              required
              length={{ min: 1, max: 200 }}
              rows={2}
              maxLength={200}
              showCount
              placeholder="记录在审计日志与余额流水中"
            />
          </>
        )}
      </Form>
    </Modal>
  );
}
