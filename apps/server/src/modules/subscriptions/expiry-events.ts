import { OrderType, SubscriptionStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { recordEvent } from "../../shared/outbox";
import { recordReminders, reminderHorizon } from "../../shared/reminders";
import type { Tx } from "../../shared/tx";

const LIVE = [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota];
/** A paid plan's customer hears of its end this many days before, each once (notices, webhooks). */
export const PLAN_EXPIRY_WARN_DAYS = [1, 3, 7] as const;

/**
 * The plan-expiry reminder job (hourly, so a day boundary is met within the hour): each live paid
 * plan ending within 7 days records "plan.expiring" for the nearest of 7/3/1 days its end is
 * within. The key (subscription, end, day) keeps each to once; an extension moves the end, so the
 * reminders start over for the new one.
 */
export async function recordPlansExpiring(ctx: AppContext, now = new Date()): Promise<number> {
  const rows = await ctx.db
    .selectFrom("subscriptions")
    .innerJoin("plans", "plans.id", "subscriptions.plan_id")
    .select(["subscriptions.id", "subscriptions.uid", "subscriptions.end_at", "plans.name"])
    .where("subscriptions.kind", "=", OrderType.Plan)
    .where("subscriptions.status", "in", LIVE)
    .where("subscriptions.end_at", ">", now.toISOString())
    .where("subscriptions.end_at", "<=", reminderHorizon(PLAN_EXPIRY_WARN_DAYS, now))
    .limit(5000)
    .execute();
  return recordReminders(
    ctx,
    "plan.expiring",
    rows.map((r) => ({ ...r, end: r.end_at! })),
    PLAN_EXPIRY_WARN_DAYS,
    (r, days) => ({ uid: r.uid, subscription_id: r.id, plan_name: r.name, end_at: r.end, days_left: days }),
    now,
  );
}

/**
 * Records "plan.expired" for the customer's live paid plans that end by `now`, in the expiring
 * transaction (call it before the update that turns them expired); once per plan and end.
 */
export async function recordPlansExpired(trx: Tx, uid: number, now: Date): Promise<void> {
  const ending = await trx
    .selectFrom("subscriptions")
    .innerJoin("plans", "plans.id", "subscriptions.plan_id")
    .select(["subscriptions.id", "subscriptions.end_at", "plans.name"])
    .where("subscriptions.uid", "=", uid)
    .where("subscriptions.kind", "=", OrderType.Plan)
    .where("subscriptions.status", "in", LIVE)
    .where("subscriptions.end_at", "is not", null)
    .where("subscriptions.end_at", "<=", now.toISOString())
    .execute();
  for (const s of ending)
    await recordEvent(
      trx,
      "plan.expired",
      { uid, subscription_id: s.id, plan_name: s.name, end_at: s.end_at! },
      { key: `plan.expired:${s.id}:${s.end_at}`, now },
    );
}
