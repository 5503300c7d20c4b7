import { OrderType, type PlanPeriod, PlanPeriodMonths } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { AppError } from "../../http/errors";
import { findPlanWithLevel, findSubscription } from "../subscriptions/subscriptions.repository";
import { applyPurchase, decidePurchase, type PurchaseIntent } from "../subscriptions/subscriptions.service";
import { changeBalance } from "../users/balance";
import type { OrderRow } from "./orders.table";

/**
 * Delivers a paid order. Call inside the payment's transaction, after lockUser and after the order
 * was marked paid. Recharges credit the amount and the bonus. Purchases are decided again against
 * the subscriptions as they are now (an online payment can arrive minutes after the order): if
 * the purchase still makes sense it is applied; if not (the order had closed, a lower plan is now
 * refused, the plan being upgraded from changed) the money paid goes to the balance instead, so a
 * payment is never lost and never delivered twice.
 * @returns whether the customer's subscriptions changed.
 */
export async function fulfilOrder(
  trx: Kysely<DB>,
  order: OrderRow,
  opts: { wasClosed: boolean; now: Date },
): Promise<boolean> {
  const amount = Number(order.amount);
  const ledger = (change: number, reason: string) =>
    changeBalance(trx, { uid: order.uid, change, reason, orderId: order.trade_id });
  const record = (set: Partial<OrderRow>) =>
    trx.updateTable("orders").set(set).where("trade_id", "=", order.trade_id).execute();

  if (order.type === OrderType.Recharge) {
    await ledger(amount, "在线充值");
    if (Number(order.bonus) > 0) await ledger(Number(order.bonus), "充值赠送");
    await record({ fulfilment: "applied" });
    return false;
  }

  const creditInstead = async (why: string) => {
    if (amount > 0) await ledger(amount, `订单未能开通，款项转入余额：${why}`);
    await record({ fulfilment: "credited", note: `${why}，已将 ${amount} 分转入余额` });
    return false;
  };
  if (opts.wasClosed) return creditInstead("订单超时关闭后才到账");

  const plan = await findPlanWithLevel(trx, order.plan_id ?? 0);
  if (!plan) return creditInstead("套餐已不存在");
  const period = order.period as PlanPeriod;
  const months = order.months ?? PlanPeriodMonths[period];
  let intent: PurchaseIntent;
  if (order.type === OrderType.Renewal) {
    const sub = await findSubscription(trx, order.subscription_id ?? 0);
    if (!sub) return creditInstead("要续费的套餐已不存在");
    intent = { kind: "renew", plan, months, period, sub };
  } else {
    intent = { kind: order.type === OrderType.Plan ? "plan" : "pack", plan, months, period };
  }

  let decision: Awaited<ReturnType<typeof decidePurchase>>;
  try {
    decision = await decidePurchase(trx, order.uid, intent, opts.now);
  } catch (err) {
    if (err instanceof AppError) return creditInstead(err.message);
    throw err;
  }
  const upgradeCredit = Number(order.upgrade_credit);
  // The credit was priced against one subscription; it holds only while that one is replaced.
  if (upgradeCredit > 0 && decision.replaces_subscription_id !== order.replaces_subscription_id) {
    return creditInstead("原套餐已变化，升级抵扣失效");
  }
  const afterCode = Number(order.price) - Number(order.code_discount);
  let toBalance = 0;
  if (decision.action === "upgrade") {
    // Priced as an upgrade: the part of the credit above the price. Became one since: all of it.
    toBalance = upgradeCredit > 0 ? upgradeCredit - (afterCode - amount) : decision.upgrade_credit;
  }
  const applied = await applyPurchase(trx, order.uid, intent, decision, {
    value: afterCode,
    tradeId: order.trade_id,
    now: opts.now,
  });
  if (toBalance > 0) await ledger(toBalance, "升级套餐：原套餐剩余价值转入余额");
  await record({
    fulfilment: "applied",
    action: decision.action,
    replaces_subscription_id: decision.replaces_subscription_id,
    ...applied,
  });
  return true;
}
