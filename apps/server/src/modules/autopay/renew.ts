import {
  AUTO_RENEW_LEAD_MS,
  AUTO_RENEW_NOTICE_MS,
  type CreateOrderBody,
  OrderType,
  PayMethod,
  type PlanPeriod,
  SubscriptionStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { AppError } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { recordEvent } from "../../shared/outbox";
import { shanghaiDate } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { priceOrder } from "../orders/pricing";
import { findPlanWithLevel } from "../plans/plans.repository";
import { findSubscription } from "../subscriptions/subscriptions.repository";
import type { SubscriptionRow } from "../subscriptions/subscriptions.table";
import { findUserByUid } from "../users/users.repository";
import { purchaseMade } from "./autopay.repository";
import { buyAutomatically } from "./buy";

/** What one run of the auto-renewal job did. */
export interface RenewalRun {
  renewed: number;
  failed: number;
  noticed: number;
}

/** Subscriptions looked at per run (the ones ending soonest first come around again next run). */
const RUN_LIMIT = 500;

/** Whether a subscription can be renewed automatically at all: a live paid plan bought by an order. */
export const autoRenewable = (sub: SubscriptionRow): boolean =>
  sub.kind === OrderType.Plan &&
  sub.end_at !== null &&
  sub.trade_id !== null &&
  sub.period !== null &&
  [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota].includes(sub.status as never);

/** The key of one period's renewal: the end it extends (a renewal moves it, starting the next period). */
const renewalKey = (sub: SubscriptionRow) => `renewal:${sub.id}:${sub.end_at}`;

/**
 * The auto-renewal job (every JOBS_INTERVAL; tests pass `now`). For each subscription with
 * auto-renewal on: three days before its end, a "subscription.renewal_due" notice (once per
 * period); within the last day, a renewal of the same plan and period from the balance, as an
 * automatic order, once per period. Each subscription is decided in its own transaction under
 * the customer's lock, re-read there, so several processes running the job renew once. A renewal
 * the balance cannot pay places nothing and records "subscription.renewal_failed"
 * ("余额不足，自动续费失败"), once a Shanghai day until the end.
 */
export async function runAutoRenewals(ctx: AppContext, now = new Date()): Promise<RenewalRun> {
  const run: RenewalRun = { renewed: 0, failed: 0, noticed: 0 };
  const rows = await ctx.db
    .selectFrom("autopay_renewals")
    .select(["subscription_id", "uid"])
    .orderBy("subscription_id")
    .limit(RUN_LIMIT)
    .execute();
  for (const row of rows) {
    const first = await findSubscription(ctx.db, row.subscription_id);
    if (!first || !autoRenewable(first)) continue;
    const left = Date.parse(first.end_at ?? "") - now.getTime();
    if (left <= 0 || left > AUTO_RENEW_NOTICE_MS) continue;
    const outcome = await transact(ctx, (trx) => renewOne(ctx, trx, row.uid, row.subscription_id, now));
    if (outcome === "renewed") run.renewed++;
    if (outcome === "failed") run.failed++;
    if (outcome === "noticed") run.noticed++;
  }
  return run;
}

async function renewOne(
  ctx: AppContext,
  trx: Tx,
  uid: number,
  subscriptionId: number,
  now: Date,
): Promise<"renewed" | "failed" | "noticed" | "none"> {
  await lockUser(trx, uid);
  // Re-read under the lock: another process may have renewed it (its end moved) or it was turned off.
  const sub = await findSubscription(trx, subscriptionId);
  const on = await trx
    .selectFrom("autopay_renewals")
    .select("failed_on")
    .where("subscription_id", "=", subscriptionId)
    .executeTakeFirst();
  if (!sub || !on || sub.uid !== uid || !autoRenewable(sub) || !sub.end_at) return "none";
  const left = Date.parse(sub.end_at) - now.getTime();
  if (left <= 0 || left > AUTO_RENEW_NOTICE_MS) return "none";
  const key = renewalKey(sub);
  if (await purchaseMade(trx, key)) return "none";
  const plan = await findPlanWithLevel(trx, sub.plan_id);
  const body: CreateOrderBody = {
    type: OrderType.Renewal,
    pay_method: PayMethod.Balance,
    pay_type: "alipay",
    trade_id: sub.trade_id ?? "",
    period: sub.period as PlanPeriod,
  };
  const facts = { uid, subscription_id: sub.id, plan_name: plan?.name ?? "", period_end: sub.end_at };
  if (left > AUTO_RENEW_LEAD_MS) {
    const balance = Number((await findUserByUid(trx, uid))?.balance ?? 0);
    const amount = await renewalPrice(trx, uid, body, now);
    const id = await recordEvent(
      trx,
      "subscription.renewal_due",
      { ...facts, amount, balance },
      { key: `renewal_due:${key}`, now },
    );
    return id === null ? "none" : "noticed";
  }
  const today = shanghaiDate(now);
  if (on.failed_on === today) return "none";
  const bought = await buyAutomatically(ctx, trx, {
    uid,
    body,
    key,
    kind: "renewal",
    now,
    short: "余额不足，自动续费失败",
  });
  if (bought.ok) {
    await trx.updateTable("autopay_renewals").set({ failed_on: null }).where("subscription_id", "=", sub.id).execute();
    return "renewed";
  }
  await trx.updateTable("autopay_renewals").set({ failed_on: today }).where("subscription_id", "=", sub.id).execute();
  await recordEvent(
    trx,
    "subscription.renewal_failed",
    { ...facts, amount: bought.amount, balance: bought.balance, message: bought.message },
    { key: `renewal_failed:${key}:${today}`, now },
  );
  return "failed";
}

/** What the renewal would cost now (0 when it cannot be priced: the renewal's failure notice says why). */
async function renewalPrice(trx: Tx, uid: number, body: CreateOrderBody, now: Date): Promise<number> {
  try {
    return (await priceOrder(trx, uid, body, now)).quote.amount;
  } catch (err) {
    if (err instanceof AppError) return 0;
    throw err;
  }
}
