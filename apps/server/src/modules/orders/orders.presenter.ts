import { type BalanceLedgerRow, type OrderAction, type OrderView, PayStatus, type PlanPeriod } from "@burrow/contract";
import type { OrderWithPlan } from "./orders.repository";

/** An order as its customer sees it (money as numbers; the pay link only while it can be paid). */
export function presentOrder(o: OrderWithPlan): OrderView {
  return {
    id: o.id,
    trade_id: o.trade_id,
    type: o.type,
    pay_method: o.pay_method,
    pay_type: o.pay_type,
    status: o.status,
    name: o.name,
    action: o.action as OrderAction,
    plan_id: o.plan_id,
    plan_name: o.plan_name,
    period: o.period as PlanPeriod | null,
    months: o.months,
    fee: Number(o.fee),
    price: Number(o.price),
    code: o.discount_code,
    code_discount: Number(o.code_discount),
    upgrade_credit: Number(o.upgrade_credit),
    bonus: Number(o.bonus),
    amount: Number(o.amount),
    subscription_id: o.subscription_id,
    note: o.note,
    channel_trade_id: o.channel_trade_id,
    pay_url: o.status === PayStatus.Awaiting ? o.pay_url : null,
    created_at: o.created_at,
    expires_at: o.expires_at,
    paid_at: o.paid_at,
    closed_at: o.closed_at,
    refunded_at: o.refunded_at,
    automatic: Number(o.automatic) === 1,
  };
}

/** A ledger row with numeric money (PostgreSQL bigint arrives as a number via the type parser). */
export function presentLedger(l: BalanceLedgerRow): BalanceLedgerRow {
  return {
    ...l,
    change: Number(l.change),
    balance_before: Number(l.balance_before),
    balance_after: Number(l.balance_after),
  };
}
