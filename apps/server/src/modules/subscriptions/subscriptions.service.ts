import { OrderType, type PlanPeriod, SubscriptionStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { type Tx, transact } from "../../shared/tx";
import { findPlanWithLevel, type PlanWithLevel } from "../plans/plans.repository";
import { GB, grantDefaultPlan } from "./default-plan";
import { recordPlansExpired } from "./expiry-events";
import { addMonths } from "./periods";
import { carriedQuota } from "./replaced";
import { findSubscription, livePlanSubscriptions } from "./subscriptions.repository";
import type { SubscriptionRow } from "./subscriptions.table";
import {
  type ExtensionAdded,
  extensionRefund,
  openingRefund,
  type RefundQuote,
  subscriptionValue,
  withoutExtension,
} from "./value";

/**
 * The rules of a customer's subscriptions: one plan in use at a time; the same plan extends;
 * a higher-level plan upgrades at once with what is left of the old one credited (value.ts); a lower (or other
 * same-level) plan is refused; the free plan never blocks and any paid plan replaces it; traffic
 * packs stack beside the plan. Orders, gift cards and refunds all go through here.
 */

const LIVE = [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota];

/** The plan subscription in use now, with its plan. */
export interface CurrentPlanSub {
  sub: SubscriptionRow;
  plan: PlanWithLevel;
  /** the free default plan: never ends, any paid plan replaces it */
  free: boolean;
}

/** A subscription without an end is the free default plan (grantDefaultPlan); paid ones always end. */
export const isFreeSubscription = (sub: Pick<SubscriptionRow, "end_at">): boolean => sub.end_at === null;

/**
 * The customer's plan subscription now, or null. There is one by construction; should two ever be
 * live, the paid one of the highest level wins, as it is the one the customer pays for.
 */
export async function currentPlanSubscription(db: Kysely<DB>, uid: number, now: Date): Promise<CurrentPlanSub | null> {
  const subs = await livePlanSubscriptions(db, uid, now);
  let best: CurrentPlanSub | null = null;
  for (const sub of subs) {
    const plan = await findPlanWithLevel(db, sub.plan_id);
    if (!plan) continue;
    const cand = { sub, plan, free: isFreeSubscription(sub) };
    if (!best || rank(cand) > rank(best)) best = cand;
  }
  return best;
}
const rank = (c: CurrentPlanSub) => (c.free ? 0 : 1_000_000) + c.plan.level;

/** What a customer wants: a plan or a traffic pack for some months, or more months of a subscription. */
export type PurchaseIntent =
  | { kind: "plan"; plan: PlanWithLevel; months: number; period: PlanPeriod | null }
  | { kind: "pack"; plan: PlanWithLevel; months: number; period: PlanPeriod | null }
  | { kind: "renew"; plan: PlanWithLevel; months: number; period: PlanPeriod | null; sub: SubscriptionRow };

/** What a purchase will do, decided against the customer's subscriptions now. */
export interface PurchaseDecision {
  action: "new" | "extend" | "upgrade" | "pack" | "renew";
  /** the subscription extended or renewed */
  subscription_id: number | null;
  /** the plan subscription replaced: the one upgraded from, or the free plan */
  replaces_subscription_id: number | null;
  /** what is left of the replaced subscription by the value model (upgrades only), fen */
  upgrade_credit: number;
  /** when the new or extended subscription will end */
  end_at: string;
}

/**
 * Decides what a purchase does, or refuses it (2001) with a message the customer can act on.
 * Reads only; call inside the purchase's transaction after lockUser so the state cannot move.
 */
export async function decidePurchase(
  db: Kysely<DB>,
  uid: number,
  intent: PurchaseIntent,
  now: Date,
): Promise<PurchaseDecision> {
  const base = { subscription_id: null, replaces_subscription_id: null, upgrade_credit: 0 };
  if (intent.kind === "renew") {
    const sub = intent.sub;
    if (!LIVE.includes(sub.status as never) || !sub.end_at || Date.parse(sub.end_at) <= now.getTime()) {
      throw refused("该套餐已过期或已退款，不能续费，请重新购买");
    }
    return { ...base, action: "renew", subscription_id: sub.id, end_at: addMonths(sub.end_at, intent.months) };
  }
  const current = await currentPlanSubscription(db, uid, now);
  if (intent.kind === "pack") {
    if (!current) throw refused("流量包需要在套餐有效期内使用，请先开通套餐");
    return { ...base, action: "pack", end_at: addMonths(now, intent.months) };
  }
  if (!current || current.free) {
    return {
      ...base,
      action: "new",
      replaces_subscription_id: current?.sub.id ?? null,
      end_at: addMonths(now, intent.months),
    };
  }
  if (current.plan.id === intent.plan.id) {
    return {
      ...base,
      action: "extend",
      subscription_id: current.sub.id,
      end_at: addMonths(current.sub.end_at ?? now, intent.months),
    };
  }
  if (intent.plan.level > current.plan.level) {
    return {
      ...base,
      action: "upgrade",
      replaces_subscription_id: current.sub.id,
      upgrade_credit: subscriptionValue(current.sub, now).remaining,
      end_at: addMonths(now, intent.months),
    };
  }
  throw refused(
    intent.plan.level < current.plan.level
      ? `当前套餐「${current.plan.name}」等级更高，不能购买低等级套餐；可续费当前套餐，或在其到期后再购买`
      : `当前套餐「${current.plan.name}」与所选套餐同等级，不能切换；可续费当前套餐，或购买更高等级的套餐`,
  );
}

/** What applying a purchase changed (kept on the order so that a refund can undo exactly that). */
export interface AppliedPurchase {
  subscription_id: number;
  sub_end_before: string | null;
  sub_end_after: string | null;
  quota_added: number;
  value_added: number;
}

/**
 * Applies a decided purchase: opens a subscription (ending the one it replaces, which records the
 * upgrade credit drawn from it as given back), or extends one.
 * Call inside the transaction, after lockUser and decidePurchase (the decision must be fresh: its
 * credit is what the replaced subscription is worth now).
 * @param opts.value fen the customer paid for it (its pro-rata base); 0 for gift cards. A 0-fen
 *   addition is recorded as free (free_quota, free_ms), so it adds no value to the subscription:
 *   gift-card months on a spent plan must not make its payment refundable again (value.ts).
 * @param opts.tradeId the order that opens a new subscription (its renewal key).
 */
export async function applyPurchase(
  trx: Tx,
  uid: number,
  intent: PurchaseIntent,
  decision: PurchaseDecision,
  opts: { value: number; tradeId: string | null; now: Date },
): Promise<AppliedPurchase> {
  const now = opts.now.toISOString();
  const quota = intent.plan.traffic * GB * intent.months;
  const free = opts.value <= 0;
  trx.changes.emit("subscription.changed", { uid });
  if (decision.action === "extend" || decision.action === "renew") {
    const sub = await findSubscription(trx, decision.subscription_id ?? 0);
    if (!sub?.end_at) throw refused("要续费的套餐不存在");
    const end = addMonths(sub.end_at, intent.months);
    const newQuota = Number(sub.traffic_quota) + quota;
    await trx
      .updateTable("subscriptions")
      .set((eb) => ({
        end_at: end,
        traffic_quota: newQuota,
        paid_amount: eb("paid_amount", "+", opts.value),
        free_quota: eb("free_quota", "+", free ? quota : 0),
        free_ms: eb("free_ms", "+", free ? Date.parse(end) - Date.parse(sub.end_at ?? end) : 0),
        // More traffic lifts "over quota"; refunded or expired ones are never renewed (decidePurchase).
        status: Number(sub.traffic_used) < newQuota ? SubscriptionStatus.InUse : SubscriptionStatus.OverQuota,
      }))
      .where("id", "=", sub.id)
      .execute();
    return {
      subscription_id: sub.id,
      sub_end_before: sub.end_at,
      sub_end_after: end,
      quota_added: quota,
      value_added: opts.value,
    };
  }
  // The replaced plan's unused free traffic (check-in bonus) moves over instead of being lost.
  const carried = await carriedQuota(trx, decision.replaces_subscription_id);
  const row = await trx
    .insertInto("subscriptions")
    .values({
      uid,
      plan_id: intent.plan.id,
      kind: intent.kind === "pack" ? OrderType.TrafficPack : OrderType.Plan,
      period: intent.period,
      start_at: now,
      end_at: decision.end_at,
      traffic_quota: quota + carried,
      status: quota + carried > 0 ? SubscriptionStatus.InUse : SubscriptionStatus.OverQuota,
      trade_id: opts.tradeId,
      created_at: now,
      paid_amount: opts.value,
      free_quota: (free ? quota : 0) + carried,
      free_ms: free ? Math.max(0, Date.parse(decision.end_at) - opts.now.getTime()) : 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  // The replaced one ends, saying what replaced it and the free traffic it passed on.
  if (decision.replaces_subscription_id !== null) {
    await trx
      .updateTable("subscriptions")
      .set((eb) => ({
        status: SubscriptionStatus.Expired,
        end_at: now,
        given_back: eb("given_back", "+", decision.upgrade_credit),
        replaced_by: row.id,
        carried_quota: carried,
      }))
      .where("id", "=", decision.replaces_subscription_id)
      .where("status", "in", LIVE)
      .execute();
  }
  return {
    subscription_id: row.id,
    sub_end_before: null,
    sub_end_after: null,
    quota_added: quota,
    value_added: opts.value,
  };
}

/** Gives the free default plan back to a customer left without any live plan. */
export async function ensureDefaultPlan(trx: Tx, uid: number, now: Date): Promise<boolean> {
  if ((await livePlanSubscriptions(trx, uid, now)).length > 0) return false;
  await grantDefaultPlan(trx, uid);
  return true;
}

/** What a paid order put into its subscription (kept on the order so that a refund can undo exactly that). */
export interface PurchaseRecord {
  uid: number;
  subscription_id: number | null;
  sub_end_before: string | null;
  sub_end_after: string | null;
  quota_added: number;
  value_added: number;
}

const extensionOf = (order: PurchaseRecord): ExtensionAdded | null =>
  order.sub_end_before && order.sub_end_after
    ? {
        sub_end_before: order.sub_end_before,
        sub_end_after: order.sub_end_after,
        quota_added: Number(order.quota_added),
        value_added: Number(order.value_added),
      }
    : null;

/**
 * What refunding an order may pay by the value model: for the order that opened the
 * subscription, what is left of it; for an extension, what taking it back removes. Reads only.
 */
export async function quoteRefund(db: Kysely<DB>, order: PurchaseRecord, now: Date): Promise<RefundQuote> {
  const sub = order.subscription_id ? await findSubscription(db, order.subscription_id) : undefined;
  if (!sub) return { refundable: 0, max_override: 0, reason: "该订单没有对应的套餐" };
  const ext = extensionOf(order);
  return ext ? extensionRefund(sub, ext, now) : openingRefund(sub, Number(order.value_added), now);
}

/**
 * Undoes what a refunded order did to its subscription, recording what left it. An order that
 * opened the subscription refunds it (−2) and `paidOut` counts as given back; an order that
 * extended one takes back exactly its months, traffic and value (the end moves back by what that
 * order added, even if later renewals followed), and anything paid beyond what that removed
 * (an operator override) counts as given back, so it cannot leave again.
 * Call inside the refund's transaction, after lockUser.
 */
export async function revokePurchase(trx: Tx, order: PurchaseRecord, paidOut: number, now: Date): Promise<void> {
  const sub = order.subscription_id ? await findSubscription(trx, order.subscription_id) : undefined;
  if (!sub) return;
  trx.changes.emit("subscription.changed", { uid: order.uid });
  const ext = extensionOf(order);
  if (ext) {
    const before = subscriptionValue(sub, now).remaining;
    const next = withoutExtension(sub, ext, now);
    const worth = subscriptionValue(next, now).worth;
    const givenBack = Math.max(Number(sub.given_back), worth - Math.max(0, before - paidOut));
    await trx
      .updateTable("subscriptions")
      .set({
        end_at: next.end_at,
        traffic_quota: next.traffic_quota,
        free_quota: next.free_quota,
        free_ms: next.free_ms,
        paid_amount: next.paid_amount,
        status: next.status,
        given_back: givenBack,
      })
      .where("id", "=", sub.id)
      .execute();
  } else {
    await trx
      .updateTable("subscriptions")
      .set((eb) => ({ status: SubscriptionStatus.Refunded, given_back: eb("given_back", "+", paidOut) }))
      .where("id", "=", sub.id)
      .execute();
  }
  if (sub.kind === OrderType.Plan) await ensureDefaultPlan(trx, order.uid, now);
}

/**
 * Adds free traffic (the daily check-in) to the customer's current plan, under their lock, and
 * derives the status from usage: still over quota after the bonus stays over quota (2). The bonus
 * is recorded as free_quota, so it adds no value to the plan (value.ts).
 * @returns the subscription credited, or null when the customer has no plan.
 */
export async function grantBonusTraffic(trx: Tx, uid: number, bytes: number, now: Date): Promise<number | null> {
  await lockUser(trx, uid);
  const current = await currentPlanSubscription(trx, uid, now);
  if (!current) return null;
  const quota = Number(current.sub.traffic_quota) + bytes;
  await trx
    .updateTable("subscriptions")
    .set((eb) => ({
      traffic_quota: quota,
      free_quota: eb("free_quota", "+", bytes),
      status: Number(current.sub.traffic_used) < quota ? SubscriptionStatus.InUse : SubscriptionStatus.OverQuota,
    }))
    .where("id", "=", current.sub.id)
    .execute();
  trx.changes.emit("subscription.changed", { uid });
  return current.sub.id;
}

/**
 * The expiry job: every subscription whose end has passed turns expired (−1); a customer left
 * without a plan gets the free default plan back. Idempotent (conditional updates under the
 * customer's lock), so several processes may run it. Emits subscription.changed per customer.
 * @returns how many subscriptions expired.
 */
export async function expireSubscriptions(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom("subscriptions")
    .select(["uid"])
    .distinct()
    .where("status", "in", LIVE)
    .where("end_at", "is not", null)
    .where("end_at", "<=", now.toISOString())
    .limit(1000)
    .execute();
  let expired = 0;
  for (const { uid } of due) {
    expired += await transact(ctx, async (trx) => {
      await lockUser(trx, uid);
      await recordPlansExpired(trx, uid, now);
      const r = await trx
        .updateTable("subscriptions")
        .set({ status: SubscriptionStatus.Expired })
        .where("uid", "=", uid)
        .where("status", "in", LIVE)
        .where("end_at", "is not", null)
        .where("end_at", "<=", now.toISOString())
        .executeTakeFirst();
      await ensureDefaultPlan(trx, uid, now);
      if (Number(r.numUpdatedRows) > 0) trx.changes.emit("subscription.changed", { uid });
      return Number(r.numUpdatedRows);
    });
  }
  return expired;
}
