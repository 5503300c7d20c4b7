import { OrderType, type PlanPeriod, PlanPeriodMonths } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { OrderHook } from "../../context";
import type { DB } from "../../db/schema";
import { AppError } from "../../shared/errors";
import type { Tx } from "../../shared/tx";
import { rechargeBonus } from "../marketing/recharge-promotions";
import { findPlanWithLevel } from "../plans/plans.repository";
import { findSubscription } from "../subscriptions/subscriptions.repository";
import { applyPurchase, decidePurchase, type PurchaseIntent } from "../subscriptions/subscriptions.service";
import { settleUpgrade } from "../subscriptions/value";
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
  trx: Tx,
  order: OrderRow,
  opts: { wasClosed: boolean; now: Date; hooks: readonly OrderHook[] },
): Promise<boolean> {
  const amount = Number(order.amount);
  const ledger = (change: number, reason: string) =>
    changeBalance(trx, { uid: order.uid, change, reason, orderId: order.trade_id });
  const record = (set: Partial<OrderRow>) =>
    trx.updateTable("orders").set(set).where("trade_id", "=", order.trade_id).execute();

  if (order.type === OrderType.Recharge) {
    const bonus = await bonusAtPayment(trx, order, opts);
    await ledger(amount, bonus.note ? `在线充值（${bonus.note}）` : "在线充值");
    if (bonus.bonus > 0) await ledger(bonus.bonus, "充值赠送");
    await record({ fulfilment: "applied", bonus: bonus.bonus, ...(bonus.note && { note: bonus.note }) });
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
  let note: string | null = null;
  if (decision.action === "upgrade") {
    // The credit is what the old plan is worth now (decidePurchase), not what it was when the
    // order was priced: an extension refunded in between, or traffic used, makes it smaller.
    const settled = settleUpgrade({ price: afterCode, amount, creditNow: decision.upgrade_credit });
    if (!settled.covered) {
      return creditInstead(`原套餐剩余价值已降为 ${decision.upgrade_credit} 分，不足以抵扣，差 ${settled.short} 分`);
    }
    toBalance = settled.toBalance;
    if (decision.upgrade_credit !== upgradeCredit) {
      note = `支付时原套餐剩余价值为 ${decision.upgrade_credit} 分（下单时 ${upgradeCredit} 分），转入余额 ${toBalance} 分`;
    }
  }
  const applied = await applyPurchase(trx, order.uid, intent, decision, {
    value: afterCode,
    tradeId: order.trade_id,
    now: opts.now,
  });
  if (toBalance > 0) {
    await ledger(toBalance, "升级套餐：原套餐剩余价值转入余额");
    // Value paid for the replaced plan went back to the balance: a refund of those orders for rebates.
    const move = { uid: order.uid, subscriptionId: decision.replaces_subscription_id as number, fen: toBalance };
    for (const hook of opts.hooks) await hook.valueMoved?.(trx, move, opts.now);
  }
  await record({
    fulfilment: "applied",
    action: decision.action,
    replaces_subscription_id: decision.replaces_subscription_id,
    ...(note && { note }),
    ...applied,
  });
  return true;
}

/**
 * A recharge's bonus at payment time: as priced while the order is within its original payment
 * window; after it, only what a promotion running now still gives (never more than priced). An
 * order that had closed (timed out or cancelled) gets none, so bonus orders cannot be stockpiled
 * during a promotion and paid after it; the note says why.
 */
async function bonusAtPayment(
  trx: Kysely<DB>,
  order: OrderRow,
  opts: { wasClosed: boolean; now: Date },
): Promise<{ bonus: number; note: string | null }> {
  const priced = Number(order.bonus);
  if (priced <= 0) return { bonus: 0, note: null };
  if (opts.wasClosed) return { bonus: 0, note: `订单已关闭后才到账，不含充值赠送（原 ${priced} 分）` };
  if (opts.now.getTime() <= Date.parse(order.expires_at)) return { bonus: priced, note: null };
  const now = Math.min(priced, await rechargeBonus(trx, Number(order.amount), opts.now));
  return now === priced
    ? { bonus: priced, note: null }
    : { bonus: now, note: `超过支付时限后到账，充值优惠已结束，赠送 ${now} 分（原 ${priced} 分）` };
}
