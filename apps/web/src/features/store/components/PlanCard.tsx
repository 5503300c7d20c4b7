import type { PlanPeriod, StorePlan } from "@burrow/contract";
import { fenToYuan } from "@burrow/contract";
import { Button, Card, Space, Tag, Typography } from "antd";

import { discountText, monthlyEquivalent, PeriodUnit, periodOf } from "../pricing";
import { PlanFeatures } from "./PlanFeatures";

const buyText: Record<StorePlan["purchase"], string> = {
  new: "立即购买",
  extend: "续购",
  upgrade: "升级",
  refused: "不可购买",
};

export interface PlanCardProps {
  plan: StorePlan;
  period: PlanPeriod;
  onBuy: (plan: StorePlan) => void;
}

/** One plan of the store at the chosen period: price, discount, limits and the buy button. */
export function PlanCard({ plan, period, onBuy }: PlanCardProps) {
  const price = periodOf(plan, period);
  const refused = plan.purchase === "refused";
  return (
    <Card
      className="store-plan-card"
      title={
        <Space size={8}>
          <span>{plan.name}</span>
          {plan.tag ? <Tag color="blue">{plan.tag}</Tag> : null}
        </Space>
      }
      actions={[
        <Button
          key="buy"
          type="primary"
          block
          disabled={refused || !price}
          onClick={() => onBuy(plan)}
          aria-label={`${buyText[plan.purchase]} ${plan.name}`}
        >
          {buyText[plan.purchase]}
        </Button>,
      ]}
    >
      <div className="store-plan-price">
        {price ? (
          <>
            <span className="store-plan-amount">¥{fenToYuan(price.price)}</span>
            <span className="store-plan-unit">/{PeriodUnit[period]}</span>
            {price.fee_discount < 1 ? (
              <>
                <Typography.Text delete type="secondary" className="store-plan-fee">
                  ¥{fenToYuan(price.fee)}
                </Typography.Text>
                <Tag color="red">{discountText(price.fee_discount)}</Tag>
              </>
            ) : null}
            {price.months > 1 ? (
              <div className="store-plan-monthly">约 ¥{fenToYuan(monthlyEquivalent(price.price, price.months))}/月</div>
            ) : null}
          </>
        ) : (
          <Typography.Text type="secondary">该周期暂不销售</Typography.Text>
        )}
      </div>
      {plan.simple_desc ? <Typography.Paragraph type="secondary">{plan.simple_desc}</Typography.Paragraph> : null}
      <PlanFeatures plan={plan} />
      {plan.purchase_note ? (
        <Typography.Paragraph type={refused ? "warning" : "secondary"} className="store-plan-note">
          {plan.purchase_note}
        </Typography.Paragraph>
      ) : null}
    </Card>
  );
}
