import {
  type CreateOrderResult,
  ErrorCode,
  fenToYuan,
  type OrderAction,
  type PayChannel,
  PayChannelLabel,
  PayChannels,
  PayMethod,
  PayMethodLabel,
  type PlanPeriod,
  PlanPeriodLabel,
  type PlanPeriodPrice,
} from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Divider, Form, Input, Radio, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError } from "@/api/client";
import { userInfoQuery } from "@/features/account/account.api";
import { feedback } from "@/lib/feedback";
import { showFormError } from "@/lib/form-error";
import { formatTime } from "@/lib/format";
import { fieldRules } from "@/lib/rules";
import { discountText, lineText, quoteLines } from "../pricing";
import { checkDiscountCode, createOrder, quoteQuery, refreshAfterPayment } from "../store.api";

/** What is bought: a plan or traffic pack, or the renewal of the subscription an order opened. */
export type CheckoutTarget = { type: 2 | 3; plan_id: number } | { type: 4; trade_id: string };

export interface CheckoutPanelProps {
  target: CheckoutTarget;
  /** the periods on sale */
  periods: PlanPeriodPrice[];
  initialPeriod?: PlanPeriod;
  /** the purchase is refused for this customer: why (shown instead of the pay button) */
  refusedReason?: string;
  submitText: string;
  /** after a balance payment (or an order that cost nothing) */
  onPaid: (result: CreateOrderResult) => void;
}

interface CheckoutForm {
  period?: PlanPeriod;
  code?: string;
  pay_method: 1 | 2;
  pay_type: PayChannel;
}

const actionText: Record<OrderAction, string> = {
  recharge: "余额充值",
  new: "开通套餐",
  extend: "顺延当前套餐",
  upgrade: "升级套餐（立即生效）",
  pack: "叠加流量包",
  renew: "续费",
};

/** "余额不足" with the way out: recharge, or pay online (DESIGN.md §3, code 20011). */
export function InsufficientBalanceAlert({ balance, amount }: { balance?: number; amount?: number }) {
  return (
    <Alert
      type="error"
      showIcon
      title="余额不足"
      description={
        <span>
          {balance !== undefined && amount !== undefined
            ? `当前余额 ¥${fenToYuan(balance)}，本单需支付 ¥${fenToYuan(amount)}。`
            : "账户余额不足以支付本单。"}
          请先<Link to="/epay/recharge">去充值</Link>，或改用在线支付。
        </span>
      }
    />
  );
}

/**
 * The checkout of a plan, traffic pack or renewal: period, promo code (checked with the server
 * when applied), the server's price breakdown, pay with the balance or online. Online payment
 * sends the browser to the gateway; the gateway returns it to /result/pay.
 */
export function CheckoutPanel({
  target,
  periods,
  initialPeriod,
  refusedReason,
  submitText,
  onPaid,
}: CheckoutPanelProps) {
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CheckoutForm>();
  const period = Form.useWatch("period", form) ?? initialPeriod;
  const payMethod = Form.useWatch("pay_method", form) ?? PayMethod.Balance;
  const [applied, setApplied] = useState<{ code: string; discount: number } | null>(null);
  const [shortOfBalance, setShortOfBalance] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const { data: me } = useQuery(userInfoQuery());

  const quote = useQuery({
    ...quoteQuery({ ...target, period, code: applied?.code }),
    enabled: period !== undefined && !refusedReason,
    meta: { silentError: true },
  });

  const check = useMutation({
    mutationFn: checkDiscountCode,
    meta: { silentError: true },
    onSuccess: (res) => {
      setApplied({ code: res.code, discount: res.discount });
      form.setFieldValue("code", res.code);
      feedback.success(`优惠码可用：${discountText(res.discount) || "已生效"}`);
    },
    onError: (error) => showFormError(form, error),
  });

  const order = useMutation({
    mutationFn: createOrder,
    meta: { silentError: true },
    onSuccess: async (res) => {
      if (res.pay_url) {
        // To the gateway; it sends the browser back to /result/pay?trade_id=….
        setRedirecting(true);
        window.location.assign(res.pay_url);
        return;
      }
      feedback.success("支付成功");
      await refreshAfterPayment(queryClient);
      onPaid(res);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ErrorCode.InsufficientBalance) {
        setShortOfBalance(true);
        return;
      }
      showFormError(form, error);
    },
  });

  const applyCode = async () => {
    const { code } = await form.validateFields(["code"]);
    const text = code?.trim();
    if (!text) {
      form.setFields([{ name: "code", errors: ["请输入优惠码"] }]);
      return;
    }
    const base = target.type === 4 ? { type: 4 as const, trade_id: target.trade_id } : target;
    check.mutate({ ...base, code: text, period });
  };

  const submit = (v: CheckoutForm) => {
    setShortOfBalance(false);
    order.mutate({
      ...target,
      period: v.period,
      pay_method: v.pay_method,
      pay_type: v.pay_method === PayMethod.Online ? v.pay_type : undefined,
      code: applied?.code,
    });
  };

  const q = quote.data;
  const balance = me?.balance;
  const lowBalance = payMethod === PayMethod.Balance && q !== undefined && balance !== undefined && balance < q.amount;

  return (
    <Card title="确认订单" className="checkout-card">
      <Form<CheckoutForm>
        form={form}
        layout="vertical"
        initialValues={{ period: initialPeriod, pay_method: PayMethod.Balance, pay_type: "alipay" }}
        onFinish={submit}
        onValuesChange={(changed) => {
          if ("pay_method" in changed || "period" in changed) setShortOfBalance(false);
        }}
      >
        <Form.Item name="period" label="购买周期" rules={fieldRules("购买周期", { required: true, choice: true })}>
          <Radio.Group optionType="button" buttonStyle="solid" className="checkout-periods">
            {periods.map((p) => (
              <Radio.Button key={p.period} value={p.period}>
                {PlanPeriodLabel[p.period]} ¥{fenToYuan(p.price)}
                {p.fee_discount < 1 ? (
                  <span className="checkout-period-off">{discountText(p.fee_discount)}</span>
                ) : null}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>

        <Form.Item label="优惠码" required={false}>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={fieldRules("优惠码", { length: { max: 32 } })}>
              <Input
                aria-label="优惠码"
                placeholder="有优惠码？在此输入"
                allowClear
                onChange={(e) => {
                  if (applied && e.target.value.trim().toUpperCase() !== applied.code) setApplied(null);
                }}
                onPressEnter={(e) => {
                  e.preventDefault();
                  void applyCode();
                }}
              />
            </Form.Item>
            <Button onClick={() => void applyCode()} loading={check.isPending}>
              使用
            </Button>
          </Space.Compact>
        </Form.Item>
        {applied ? (
          <div className="checkout-applied">
            <Tag
              color="green"
              closable
              onClose={() => {
                setApplied(null);
                form.setFieldValue("code", undefined);
              }}
            >
              已使用优惠码 {applied.code}（{discountText(applied.discount) || "已生效"}）
            </Tag>
          </div>
        ) : null}

        <Form.Item name="pay_method" label="支付方式">
          <Radio.Group>
            <Radio value={PayMethod.Balance}>
              {PayMethodLabel[PayMethod.Balance]}
              {balance !== undefined ? (
                <Typography.Text type="secondary">（余额 ¥{fenToYuan(balance)}）</Typography.Text>
              ) : null}
            </Radio>
            <Radio value={PayMethod.Online}>{PayMethodLabel[PayMethod.Online]}</Radio>
          </Radio.Group>
        </Form.Item>
        {payMethod === PayMethod.Online ? (
          <Form.Item name="pay_type" label="支付渠道">
            <Radio.Group
              optionType="button"
              options={PayChannels.map((c) => ({ value: c, label: PayChannelLabel[c] }))}
            />
          </Form.Item>
        ) : null}

        <Divider />
        {quote.error ? <Alert type="warning" showIcon title={quote.error.message} className="checkout-alert" /> : null}
        {q ? (
          <section className="quote" aria-label="价格明细">
            <div className="quote-action">
              {actionText[q.action]}
              {q.end_at ? <span>，到期时间 {formatTime(q.end_at)}</span> : null}
            </div>
            {quoteLines(q).map((line) => (
              <div key={line.key} className={`quote-line quote-line-${line.key}`}>
                <span>{line.label}</span>
                <span>{lineText(line)}</span>
              </div>
            ))}
            {q.credit_to_balance > 0 ? (
              <Typography.Text type="secondary">
                原套餐剩余价值超出部分 ¥{fenToYuan(q.credit_to_balance)} 将转入余额
              </Typography.Text>
            ) : null}
          </section>
        ) : null}
        {shortOfBalance ? <InsufficientBalanceAlert balance={balance} amount={q?.amount} /> : null}
        {!shortOfBalance && lowBalance ? (
          <Typography.Paragraph type="warning" className="checkout-hint">
            余额不足以支付本单，可<Link to="/epay/recharge">先充值</Link>或改用在线支付。
          </Typography.Paragraph>
        ) : null}
        {refusedReason ? (
          <Alert type="warning" showIcon title="无法购买" description={refusedReason} />
        ) : (
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block
            loading={order.isPending || redirecting}
            disabled={!period}
          >
            {payMethod === PayMethod.Online ? `${submitText}（在线支付）` : submitText}
            {q ? ` ¥${fenToYuan(q.amount)}` : ""}
          </Button>
        )}
      </Form>
    </Card>
  );
}
