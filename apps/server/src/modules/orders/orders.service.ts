import {
  type AdminOrderDetail,
  type AdminOrderQuery,
  type AdminOrderRow,
  type BalanceLedgerRow,
  type CreateOrderBody,
  type CreateOrderResult,
  type OrderDetail,
  type OrderListQuery,
  type OrderQuote,
  OrderType,
  type OrderView,
  type Paged,
  PayMethod,
  PayStatus,
  type PreviewOrderBody,
  type RefundOrderBody,
  type RefundPreview,
  type RefundResult,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { recordEvent } from "../../shared/outbox";
import { extend } from "../../shared/rows";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { releaseDiscountCode } from "../marketing/discount-codes";
import { findPlanWithLevel } from "../plans/plans.repository";
import { presentStorePlanFor } from "../store/store.service";
import { presentSubscription } from "../subscriptions/subscriptions.presenter";
import { findSubscription } from "../subscriptions/subscriptions.repository";
import { quoteRefund, revokePurchase } from "../subscriptions/subscriptions.service";
import { changeBalance } from "../users/balance";
import { shownPhone } from "../users/users.presenter";
import { requirePhone } from "../users/users.service";
import { fulfilOrder } from "./fulfil";
import { presentLedger, presentOrder } from "./orders.presenter";
import {
  findOrder,
  findOrderWithPlan,
  ledgerOfOrder,
  ledgerPage,
  listAllOrders,
  listUserOrders,
} from "./orders.repository";
import type { OrderRow } from "./orders.table";
import { placeOrder, runPaidHooks } from "./place";
import { priceOrder } from "./pricing";
import { shareValueOf, type ValueShare } from "./value-sources";

/** POST /user/order/preview: the price of an order for this customer now, nothing written. */
export async function previewOrder(ctx: AppContext, uid: number, body: PreviewOrderBody): Promise<OrderQuote> {
  return (await priceOrder(ctx.db, uid, body, new Date())).quote;
}

/**
 * POST /user/order. In one transaction under the customer's lock (place.ts): price it, take the
 * promo code use, write the order; with the balance (or nothing to pay) debit and deliver at
 * once, else answer the gateway link. Insufficient balance (20011) or any refusal rolls
 * everything back.
 */
export async function createOrder(
  ctx: AppContext,
  uid: number,
  body: CreateOrderBody,
  client: { ip: string | null } = { ip: null },
): Promise<CreateOrderResult> {
  await requirePhone(ctx, uid);
  const now = new Date();
  return transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    return placeOrder(ctx, trx, { uid, body, now, clientIp: client.ip });
  });
}

/** What an online payment did to its order. */
export type PaymentOutcome = "paid" | "duplicate" | "unknown" | "mismatch";

/**
 * Records a verified online payment (the gateway's notify or return) exactly once: under the
 * customer's lock the order moves 2 (or −1) → 1 by a conditional update and is delivered in the
 * same transaction; the same payment again answers "duplicate" and changes nothing.
 * @param p.amount fen the gateway says was paid; must equal the order's amount.
 */
export async function recordOnlinePayment(
  ctx: AppContext,
  p: { tradeId: string; channelTradeId: string; amount: number },
): Promise<PaymentOutcome> {
  const first = await findOrder(ctx.db, p.tradeId);
  if (!first || first.pay_method !== PayMethod.Online) return "unknown";
  if (Number(first.amount) !== p.amount) return "mismatch";
  const now = new Date();
  const out = await transact(ctx, async (trx) => {
    await lockUser(trx, first.uid);
    const order = await findOrder(trx, p.tradeId);
    if (!order) return { outcome: "unknown" as const, changed: false };
    if (order.status !== PayStatus.Awaiting && order.status !== PayStatus.Closed) {
      if (order.channel_trade_id !== p.channelTradeId) {
        ctx.log.error(
          { trade_id: order.trade_id, known: order.channel_trade_id, again: p.channelTradeId },
          "payment: a second, different payment for an order already paid; settle it with the gateway",
        );
      }
      return { outcome: "duplicate" as const, changed: false };
    }
    const paid = { status: PayStatus.Paid, paid_at: now.toISOString(), channel_trade_id: p.channelTradeId };
    const r = await trx
      .updateTable("orders")
      .set(paid)
      .where("id", "=", order.id)
      .where("status", "=", order.status)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return { outcome: "duplicate" as const, changed: false };
    const changed = await fulfilOrder(
      trx,
      { ...order, ...paid },
      { wasClosed: order.status === PayStatus.Closed, now, hooks: ctx.orderHooks },
    );
    await runPaidHooks(ctx, trx, order.trade_id, now);
    return { outcome: "paid" as const, changed };
  });
  return out.outcome;
}

/** Closes one awaiting order (under its customer's lock) and gives its promo code use back. */
async function closeOrder(trx: Kysely<DB>, order: OrderRow, now: Date): Promise<boolean> {
  await lockUser(trx, order.uid);
  const r = await trx
    .updateTable("orders")
    .set({ status: PayStatus.Closed, closed_at: now.toISOString() })
    .where("id", "=", order.id)
    .where("status", "=", PayStatus.Awaiting)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  if (order.discount_code_id !== null) await releaseDiscountCode(trx, order.discount_code_id);
  return true;
}

/**
 * The order-closing job: awaiting orders past their 15 minutes turn closed (−1). Idempotent and
 * safe beside a payment arriving at the same moment (both run under the customer's lock with
 * conditional updates; a payment for a closed order still credits the customer).
 * @returns how many orders closed.
 */
export async function closeExpiredOrders(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom("orders")
    .selectAll()
    .where("status", "=", PayStatus.Awaiting)
    .where("expires_at", "<=", now.toISOString())
    .orderBy("id")
    .limit(1000)
    .execute();
  let closed = 0;
  for (const order of due) {
    if (await transact(ctx, (trx) => closeOrder(trx, order, now))) closed++;
  }
  return closed;
}

/** POST /user/order/{tradeID}/cancel: the customer gives up an awaiting order. */
export async function cancelOrder(ctx: AppContext, uid: number, tradeId: string): Promise<OrderView> {
  const order = await findOrder(ctx.db, tradeId);
  if (!order || order.uid !== uid) throw notFound("订单");
  const ok = await transact(ctx, (trx) => closeOrder(trx, order, new Date()));
  if (!ok) throw refused("只有待支付的订单可以取消");
  return presentOrder((await findOrderWithPlan(ctx.db, tradeId))!);
}

/** GET /user/order */
export async function listMyOrders(ctx: AppContext, uid: number, q: OrderListQuery): Promise<Paged<OrderView>> {
  const page = await listUserOrders(ctx.db, uid, q);
  return { ...page, list: page.list.map(presentOrder) };
}

/** GET /user/order/{tradeID}: 404 for anyone but its customer. */
export async function getMyOrder(ctx: AppContext, uid: number, tradeId: string): Promise<OrderDetail> {
  const order = await findOrderWithPlan(ctx.db, tradeId);
  if (!order || order.uid !== uid) throw notFound("订单");
  const now = new Date();
  const sub = order.subscription_id ? await findSubscription(ctx.db, order.subscription_id) : undefined;
  const plan = order.plan_id ? await findPlanWithLevel(ctx.db, order.plan_id) : undefined;
  const subView = sub ? await presentSubscription(ctx.db, sub, now) : null;
  return {
    ...presentOrder(order),
    subscription: subView,
    plan: plan ? await presentStorePlanFor(ctx.db, uid, plan, now) : null,
    renewable: Boolean(subView?.renewable && order.status === PayStatus.Paid),
  };
}

/** GET /user/ledger */
export async function myLedger(
  ctx: AppContext,
  uid: number,
  q: { page: number; size: number },
): Promise<Paged<BalanceLedgerRow>> {
  const page = await ledgerPage(ctx.db, uid, q.page, q.size);
  return { ...page, list: page.list.map(presentLedger) };
}

const presentAdminOrder = (o: Parameters<typeof presentOrder>[0] & { phone: string | null }): AdminOrderRow =>
  extend(presentOrder(o), { uid: o.uid, phone: shownPhone(o.phone) });

/** GET /super/epay/order */
export async function listOrders(ctx: AppContext, q: AdminOrderQuery): Promise<Paged<AdminOrderRow>> {
  const page = await listAllOrders(ctx.db, q);
  return { ...page, list: page.list.map(presentAdminOrder) };
}

/** Why an order cannot be refunded at all, or null: paid purchases that were delivered only. */
function refundBlocker(o: OrderRow): string | null {
  if (o.status !== PayStatus.Paid) return "只有已支付的订单可以退款";
  if (o.type === OrderType.Recharge) return "充值订单的款项已在余额中，不能退款到余额";
  if (o.fulfilment !== "applied") return "该订单的款项已转入余额，无需退款";
  return null;
}

/** What refunding an order pays by the value model, or null when it cannot be refunded. */
async function refundPreview(db: Kysely<DB>, order: OrderRow, now: Date): Promise<RefundPreview | null> {
  if (refundBlocker(order)) return null;
  return quoteRefund(db, order, now);
}

/** GET /super/epay/order/detail?trade_id */
export async function orderDetail(ctx: AppContext, tradeId: string): Promise<AdminOrderDetail> {
  const order = await findOrderWithPlan(ctx.db, tradeId);
  if (!order) throw notFound("订单");
  const user = await ctx.db
    .selectFrom("users")
    .select(["uid", "phone", "nickname", "balance"])
    .where("uid", "=", order.uid)
    .executeTakeFirst();
  const sub = order.subscription_id ? await findSubscription(ctx.db, order.subscription_id) : undefined;
  const refund = await refundPreview(ctx.db, order, new Date());
  return {
    ...presentAdminOrder({ ...order, phone: user?.phone ?? null }),
    user: {
      uid: order.uid,
      phone: shownPhone(user?.phone),
      nickname: user?.nickname ?? "",
      balance: Number(user?.balance ?? 0),
    },
    subscription: sub ? await presentSubscription(ctx.db, sub, new Date()) : null,
    ledger: (await ledgerOfOrder(ctx.db, tradeId)).map(presentLedger),
    refundable: refund !== null && refund.max_override > 0,
    refund,
  };
}

/**
 * How a refund of `order` is shared across the orders whose money it pays back: an extension's
 * refund takes back its own value; an opening refund takes back the whole subscription, so it is
 * shared pro rata across the orders that paid for it (shareValueOf). The order refunded takes
 * what no order paid for (an override beyond the value model). Always lists the order refunded.
 */
async function refundShares(db: Kysely<DB>, order: OrderRow, refund: number): Promise<ValueShare[]> {
  const extension = order.sub_end_before !== null;
  const shares =
    extension || order.subscription_id === null ? [] : await shareValueOf(db, order.subscription_id, refund);
  const rest = refund - shares.reduce((s, x) => s + x.fen, 0);
  const own = shares.find((x) => x.order.id === order.id);
  if (own) own.fen += rest;
  else shares.unshift({ order, fen: rest });
  return shares;
}

/**
 * POST /super/epay/order/refund: gives back to the balance what is left, by the value model, of
 * what a paid purchase put into its subscription, and takes that back (opened by it: −2; extended
 * by it: exactly its months and traffic), marks the order −2, all in one audited transaction under
 * the customer's lock. An amount above the model's is an explicit override with a reason, capped
 * so that value already given out (upgrade credit, earlier refunds) never leaves twice; nothing
 * left and no override → refused with the reason. Recharges cannot be refunded to the balance.
 */
export async function refundOrder(
  ctx: AppContext,
  operator: { uid: number; ip: string },
  body: RefundOrderBody,
): Promise<RefundResult> {
  const tradeId = body.trade_id;
  const first = await findOrder(ctx.db, tradeId);
  if (!first) throw notFound("订单");
  const now = new Date();
  const result = await transact(ctx, async (trx) => {
    await lockUser(trx, first.uid);
    const order = (await findOrder(trx, tradeId))!;
    const blocker = refundBlocker(order);
    if (blocker) throw refused(blocker);
    const quote = await quoteRefund(trx, order, now);
    const refund = body.amount ?? quote.refundable;
    const override = refund > quote.refundable;
    if (override) {
      if (refund > quote.max_override) {
        throw invalid("amount", `退款金额最多 ${quote.max_override} 分（${quote.reason}）`);
      }
      if (!body.override_reason) {
        throw invalid("override_reason", `超出按剩余价值计算的 ${quote.refundable} 分，须填写原因`);
      }
    } else if (refund === 0 && quote.refundable === 0) {
      throw refused(`该订单已无可退价值：${quote.reason}`);
    }
    // Who paid for what goes back, read before anything changes (value-sources.ts).
    const shares = await refundShares(trx, order, refund);
    await revokePurchase(trx, order, refund, now);
    let balance: number;
    if (refund > 0) {
      balance = (
        await changeBalance(trx, {
          uid: order.uid,
          change: refund,
          reason: override ? `订单退款（人工调整：${body.override_reason}）：${order.name}` : `订单退款：${order.name}`,
          orderId: order.trade_id,
          operatorUid: operator.uid,
        })
      ).after;
    } else {
      const u = await trx.selectFrom("users").select("balance").where("uid", "=", order.uid).executeTakeFirstOrThrow();
      balance = Number(u.balance);
    }
    // Each order records its share of the refund (invoices count what is left of it); the order
    // refunded, and with an opening refund every order of the subscription taken back, turns −2.
    const opening = order.sub_end_before === null;
    for (const share of shares) {
      const own = share.order.id === order.id;
      if (!own && share.fen <= 0) continue;
      const takenBack = own || (opening && share.order.subscription_id === order.subscription_id);
      await trx
        .updateTable("orders")
        .set((eb) => ({
          refunded_amount: eb("refunded_amount", "+", share.fen),
          refunded_at: now.toISOString(),
          ...(takenBack && { status: PayStatus.Refunded }),
        }))
        .where("id", "=", share.order.id)
        .execute();
      const row = (await findOrder(trx, share.order.trade_id))!;
      for (const hook of ctx.orderHooks) await hook.refunded?.(trx, row, share.fen, now);
    }
    await audit(trx, {
      operatorUid: operator.uid,
      action: override ? "order.refund.override" : "order.refund",
      target: `order:${order.trade_id}`,
      detail: {
        uid: order.uid,
        refunded: refund,
        model_refundable: quote.refundable,
        model_reason: quote.reason,
        ...(override && { override_reason: body.override_reason }),
        subscription_id: order.subscription_id,
        shares: Object.fromEntries(shares.filter((x) => x.fen > 0).map((x) => [x.order.trade_id, x.fen])),
      },
      ip: operator.ip,
    });
    // The customer's notice (and webhooks) after the commit; one refund per order, the key says so.
    await recordEvent(
      trx,
      "order.refunded",
      { order_id: order.id, trade_id: order.trade_id, uid: order.uid, name: order.name, amount: refund },
      { key: `order.refunded:${order.trade_id}`, now },
    );
    return { trade_id: order.trade_id, refunded: refund, override, balance };
  });
  return result;
}
