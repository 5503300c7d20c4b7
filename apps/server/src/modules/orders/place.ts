import {
  type CreateOrderBody,
  type CreateOrderResult,
  ORDER_PAY_TIMEOUT_MINUTES,
  PayMethod,
  PayStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { refused } from "../../shared/errors";
import { randomDigits } from "../../shared/ids";
import { recordEvent } from "../../shared/outbox";
import { shanghaiWallClock } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import { reserveDiscountCode } from "../marketing/discount-codes";
import { changeBalance } from "../users/balance";
import { fulfilOrder } from "./fulfil";
import { findOrder, insertOrder } from "./orders.repository";
import { type PricedOrder, priceOrder } from "./pricing";

/** Awaiting online orders one customer may have at a time. */
export const MAX_AWAITING_ORDERS = 10;

/** A trade id: Shanghai time to the second plus 6 random digits (20 digits, sortable, unguessable enough). */
export function newTradeId(now = new Date()): string {
  const stamp = shanghaiWallClock(now).toISOString().replace(/\D/g, "").slice(0, 14);
  return `${stamp}${randomDigits(6)}`;
}

/** An order to place: the customer's own (POST /user/order) or an automatic purchase (modules/autopay). */
export interface PlaceOrder {
  uid: number;
  body: CreateOrderBody;
  now: Date;
  clientIp?: string | null;
  /** already priced in this transaction (the caller checked the amount against the balance) */
  priced?: PricedOrder;
  /** bought by an automatic rule: marked on the order and in its order.paid event */
  automatic?: boolean;
}

/**
 * Places an order: prices it, takes the promo code use, writes the order; with the balance (or
 * nothing to pay) debits and delivers at once, else records the gateway link. Call inside a
 * transaction right after lockUser(uid); insufficient balance (20011) or any refusal throws, and
 * the caller's rollback undoes everything.
 */
export async function placeOrder(ctx: AppContext, trx: Tx, p: PlaceOrder): Promise<CreateOrderResult> {
  const { uid, body, now } = p;
  // Each awaiting order holds a promo code use and a row for 15 minutes: cap them per customer,
  // counted under the lock before anything else, so concurrent orders cannot pass it together.
  const awaiting = await trx
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("uid", "=", uid)
    .where("status", "=", PayStatus.Awaiting)
    .executeTakeFirstOrThrow();
  const priced = p.priced ?? (await priceOrder(trx, uid, body, now));
  const q = priced.quote;
  const willAwait = body.pay_method === PayMethod.Online && q.amount > 0;
  if (willAwait && Number(awaiting.n) >= MAX_AWAITING_ORDERS) {
    throw refused(`待支付订单过多（最多 ${MAX_AWAITING_ORDERS} 笔），请先完成支付或取消后再下单`);
  }
  if (priced.code) await reserveDiscountCode(trx, priced.code.id);
  const order = await insertOrder(trx, {
    trade_id: newTradeId(now),
    uid,
    type: body.type,
    pay_method: body.pay_method,
    pay_type: body.pay_method === PayMethod.Online ? body.pay_type : null,
    status: PayStatus.Awaiting,
    name: priced.name,
    action: q.action,
    plan_id: q.plan_id,
    period: q.period,
    months: q.months,
    fee: q.fee,
    price: q.price,
    discount_code_id: priced.code?.id ?? null,
    discount_code: priced.code?.code ?? null,
    code_discount: q.code_discount,
    upgrade_credit: q.upgrade_credit,
    bonus: q.bonus,
    amount: q.amount,
    subscription_id: q.subscription_id,
    replaces_subscription_id: q.replaces_subscription_id,
    note: "",
    client_ip: p.clientIp ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + ORDER_PAY_TIMEOUT_MINUTES * 60_000).toISOString(),
    automatic: p.automatic ? 1 : 0,
  });
  if (!willAwait) {
    if (q.amount > 0) {
      await changeBalance(trx, { uid, change: -q.amount, reason: priced.name, orderId: order.trade_id });
    }
    const paid = { status: PayStatus.Paid, paid_at: now.toISOString() };
    await trx.updateTable("orders").set(paid).where("id", "=", order.id).execute();
    await fulfilOrder(trx, { ...order, ...paid }, { wasClosed: false, now, hooks: ctx.orderHooks });
    await runPaidHooks(ctx, trx, order.trade_id, now);
    return { trade_id: order.trade_id, status: PayStatus.Paid, amount: q.amount, pay_url: null };
  }
  const payUrl = ctx.payments.payUrl(order);
  await trx.updateTable("orders").set({ pay_url: payUrl }).where("id", "=", order.id).execute();
  return { trade_id: order.trade_id, status: PayStatus.Awaiting, amount: q.amount, pay_url: payUrl };
}

/** Tells the order hooks (affiliate, invoices) about a paid order, as delivered, in its transaction. */
export async function runPaidHooks(ctx: AppContext, trx: Tx, tradeId: string, now: Date): Promise<void> {
  const order = (await findOrder(trx, tradeId))!;
  for (const hook of ctx.orderHooks) await hook.paid?.(trx, order, now);
  // After-the-fact reactions (notices, webhooks) take the outbox: they run after the commit.
  // Keyed by the order: a payment is recorded once (the conditional update above), the key says so.
  const { id, trade_id, uid, type, name, amount } = order;
  await recordEvent(
    trx,
    "order.paid",
    { order_id: id, trade_id, uid, type, name, amount: Number(amount), automatic: Number(order.automatic) === 1 },
    { key: `order.paid:${trade_id}`, now },
  );
}
