import {
  applyMultiplier,
  fenToYuan,
  type OrderQuote,
  OrderType,
  type PlanPeriod,
  PlanPeriodLabel,
  type PreviewOrderBody,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { invalid } from "../../shared/errors";
import { validateDiscountCode } from "../marketing/discount-codes";
import type { DiscountCodeDbRow } from "../marketing/marketing.table";
import { rechargeBonus } from "../marketing/recharge-promotions";
import { findPlanWithLevel } from "../plans/plans.repository";
import { periodPrice } from "../plans/pricing";
import { findSubscriptionByTrade } from "../subscriptions/subscriptions.repository";
import { decidePurchase, type PurchaseDecision, type PurchaseIntent } from "../subscriptions/subscriptions.service";

/** An order priced line by line, with what it will do; nothing is written. */
export interface PricedOrder {
  quote: OrderQuote;
  /** null for recharges */
  intent: PurchaseIntent | null;
  decision: PurchaseDecision | null;
  code: DiscountCodeDbRow | null;
  /** product name shown to the customer and sent to the gateway */
  name: string;
}

/**
 * Prices an order for a customer now: period price (fee × fee discount), promo code, upgrade
 * credit (deducted, the part above the price goes to the balance), recharge bonus.
 * `amount = price − code_discount − min(upgrade_credit, price − code_discount)`.
 * @throws 400/10000 naming the bad field (unknown plan, period not on sale, bad code);
 *   2001 when the subscription rules refuse the purchase.
 */
export async function priceOrder(db: Kysely<DB>, uid: number, body: PreviewOrderBody, now: Date): Promise<PricedOrder> {
  if (body.type === OrderType.Recharge) {
    const amount = body.amount ?? 0;
    const bonus = await rechargeBonus(db, amount, now);
    return {
      quote: {
        ...emptyQuote(body.type, "recharge"),
        fee: amount,
        price: amount,
        bonus,
        amount,
      },
      intent: null,
      decision: null,
      code: null,
      name: `余额充值 ${fenToYuan(amount)} 元`,
    };
  }

  const period = body.period as PlanPeriod;
  let intent: PurchaseIntent;
  if (body.type === OrderType.Renewal) {
    const sub = await findSubscriptionByTrade(db, uid, body.trade_id ?? "");
    if (!sub) throw invalid("trade_id", "没有找到该订单开通的套餐");
    const plan = await findPlanWithLevel(db, sub.plan_id);
    if (!plan) throw invalid("trade_id", "该套餐已不存在，不能续费");
    intent = { kind: "renew", plan, months: 0, period, sub };
  } else {
    const plan = await findPlanWithLevel(db, body.plan_id ?? 0);
    if (!plan?.on_sale) throw invalid("plan_id", "套餐不存在或已下架");
    if (plan.type !== body.type) {
      throw invalid(
        "plan_id",
        plan.type === OrderType.TrafficPack
          ? "所选商品是流量包，请以订单类型 3 购买"
          : "所选商品是套餐，请以订单类型 2 购买",
      );
    }
    intent = { kind: body.type === OrderType.Plan ? "plan" : "pack", plan, months: 0, period };
  }
  const pp = periodPrice(intent.plan, period);
  if (!pp) throw invalid("period", `该套餐不提供${PlanPeriodLabel[period]}`);
  // A non-zero fee never sells for 0 fen (plans saved before that rule was checked).
  if (pp.fee > 0 && pp.price === 0) throw invalid("period", "该套餐此周期的折后价格为 0 分，暂不可购买");
  intent.months = pp.months;

  const decision = await decidePurchase(db, uid, intent, now);
  const code = body.code ? await validateDiscountCode(db, uid, body.code, intent.plan.id, now) : null;
  const afterCode = code ? applyMultiplier(pp.price, Number(code.discount)) : pp.price;
  if (pp.price > 0 && afterCode === 0) throw invalid("code", "使用该优惠码后价格为 0 分，不能使用");
  const creditUsed = Math.min(decision.upgrade_credit, afterCode);
  const verb = { new: "购买", extend: "续订", upgrade: "升级", pack: "购买", renew: "续费" }[decision.action];
  return {
    quote: {
      ...emptyQuote(body.type, decision.action),
      plan_id: intent.plan.id,
      plan_name: intent.plan.name,
      period,
      months: pp.months,
      fee: pp.fee,
      price: pp.price,
      code: code?.code ?? null,
      code_discount: pp.price - afterCode,
      upgrade_credit: decision.upgrade_credit,
      credit_to_balance: decision.upgrade_credit - creditUsed,
      amount: afterCode - creditUsed,
      subscription_id: decision.subscription_id,
      replaces_subscription_id: decision.replaces_subscription_id,
      end_at: decision.end_at,
    },
    intent,
    decision,
    code,
    name: `${verb}${intent.kind === "pack" ? "流量包" : "套餐"}「${intent.plan.name}」${PlanPeriodLabel[period]}`,
  };
}

function emptyQuote(type: number, action: OrderQuote["action"]): OrderQuote {
  return {
    type,
    action,
    plan_id: null,
    plan_name: null,
    period: null,
    months: null,
    fee: 0,
    price: 0,
    code: null,
    code_discount: 0,
    upgrade_credit: 0,
    credit_to_balance: 0,
    bonus: 0,
    amount: 0,
    subscription_id: null,
    replaces_subscription_id: null,
    end_at: null,
  };
}
