import {
  fenToYuan,
  OrderType,
  type PayChannel,
  PayChannelLabel,
  PayChannels,
  PayMethod,
  RECHARGE_MAX_FEN,
  RECHARGE_MIN_FEN,
  RechargePresets,
  yuanToFen,
} from "@burrow/contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Button, Card, Col, Form, InputNumber, Radio, Row, Space, Statistic, Tag, Typography } from "antd";
import { useState } from "react";
import { PageContainer } from "@/components/PageContainer";
import { userInfoQuery } from "@/features/account/account.api";
import { LedgerCard } from "@/features/orders/components/LedgerCard";
import { showFormError } from "@/lib/form-error";
import { fieldRules } from "@/lib/rules";
import { GiftCardRedeemCard } from "../components/GiftCardRedeemCard";
import { appliedPromotion, bonusFor, nextPromotion } from "../recharge";
import { createOrder, rechargePromotionsQuery } from "../store.api";

interface RechargeForm {
  /** yuan */
  amount: number | null;
  pay_type: PayChannel;
}

const MIN_YUAN = RECHARGE_MIN_FEN / 100;
const MAX_YUAN = RECHARGE_MAX_FEN / 100;

/** /epay/recharge: recharge online (with the running promotions), redeem gift cards, the ledger. */
export function RechargePage() {
  const [form] = Form.useForm<RechargeForm>();
  const amountYuan = Form.useWatch("amount", form);
  const amount = typeof amountYuan === "number" ? yuanToFen(amountYuan) : 0;
  const [redirecting, setRedirecting] = useState(false);
  // The balance may have changed elsewhere (a refund, a gift card): fresh whenever the page opens.
  const { data: me } = useQuery({ ...userInfoQuery(), staleTime: 0 });
  const { data: promos = [] } = useQuery(rechargePromotionsQuery());

  const recharge = useMutation({
    mutationFn: createOrder,
    meta: { silentError: true },
    onError: (error) => showFormError(form, error),
    onSuccess: (res) => {
      if (!res.pay_url) return;
      setRedirecting(true);
      window.location.assign(res.pay_url);
    },
  });

  const bonus = bonusFor(promos, amount);
  const applied = appliedPromotion(promos, amount);
  const next = nextPromotion(promos, amount);

  return (
    <PageContainer title="余额充值">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title="在线充值">
            <Statistic title="当前余额（元）" value={me ? fenToYuan(me.balance) : "-"} prefix="¥" />
            <Form<RechargeForm>
              form={form}
              layout="vertical"
              className="recharge-form"
              initialValues={{ amount: RechargePresets[0] / 100, pay_type: "alipay" }}
              onFinish={(v) =>
                recharge.mutate({
                  type: OrderType.Recharge,
                  amount: yuanToFen(v.amount ?? 0),
                  pay_method: PayMethod.Online,
                  pay_type: v.pay_type,
                })
              }
            >
              <Form.Item label="选择金额">
                <Radio.Group
                  optionType="button"
                  value={RechargePresets.find((p) => p === amount) ?? null}
                  onChange={(e) => form.setFieldsValue({ amount: Number(e.target.value) / 100 })}
                  options={RechargePresets.map((fen) => ({ value: fen, label: `¥${fen / 100}` }))}
                />
              </Form.Item>
              <Form.Item
                name="amount"
                label="充值金额（元）"
                rules={fieldRules("充值金额", { required: true, range: { min: MIN_YUAN, max: MAX_YUAN } })}
                extra={`单笔 ${MIN_YUAN}–${MAX_YUAN} 元，可输入其他金额`}
              >
                <InputNumber min={MIN_YUAN} max={MAX_YUAN} precision={2} step={10} style={{ width: 220 }} />
              </Form.Item>
              {promos.length > 0 ? (
                <Form.Item label="充值优惠">
                  <Space wrap>
                    {promos.map((p) => (
                      <Tag key={p.id} color={applied?.id === p.id ? "red" : "default"}>
                        {p.name ? `${p.name}：` : ""}满 ¥{fenToYuan(p.min_amount)} 送 ¥{fenToYuan(p.bonus)}
                      </Tag>
                    ))}
                  </Space>
                  <div className="recharge-bonus">
                    {bonus > 0 ? (
                      <Typography.Text type="success">
                        本次充值赠送 ¥{fenToYuan(bonus)}，到账 ¥{fenToYuan(amount + bonus)}
                      </Typography.Text>
                    ) : null}
                    {next ? (
                      <Typography.Text type="secondary">
                        {bonus > 0 ? "；" : ""}再充 ¥{fenToYuan(next.missing)} 可获赠 ¥{fenToYuan(next.promo.bonus)}
                      </Typography.Text>
                    ) : null}
                  </div>
                </Form.Item>
              ) : null}
              <Form.Item name="pay_type" label="支付渠道">
                <Radio.Group options={PayChannels.map((c) => ({ value: c, label: PayChannelLabel[c] }))} />
              </Form.Item>
              <Button type="primary" htmlType="submit" size="large" loading={recharge.isPending || redirecting}>
                立即充值{amount > 0 ? ` ¥${fenToYuan(amount)}` : ""}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <GiftCardRedeemCard />
        </Col>
        <Col span={24}>
          <LedgerCard />
        </Col>
      </Row>
    </PageContainer>
  );
}
