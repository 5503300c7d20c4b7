import { OrderType, type PlanLimitsInfo, SubscriptionStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { recordEvent } from "../../shared/outbox";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import type { SubscriptionRow } from "./subscriptions.table";

/** What a customer's current plan allows, and whether frp may serve them now. */
export interface PlanLimits extends PlanLimitsInfo {
  /** plan_levels.id of the plan */
  level_id: number;
}

/** The subscriptions that count now: the plan in use (or over quota) and live traffic packs. */
function live(db: Kysely<DB>, uid: number) {
  const now = nowIso();
  return db
    .selectFrom("subscriptions")
    .where("subscriptions.uid", "=", uid)
    .where("subscriptions.status", "in", [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota])
    .where((eb) => eb.or([eb("subscriptions.end_at", "is", null), eb("subscriptions.end_at", ">", now)]))
    .orderBy("subscriptions.end_at", "asc")
    .orderBy("subscriptions.id", "asc");
}

const liveSubscriptions = (db: Kysely<DB>, uid: number) => live(db, uid).selectAll().execute();

/**
 * The customer's effective limits, or null when they have no plan at all. One statement, each
 * subscription with its plan's limits: the dashboard, /user/traffic and the frp decision read it.
 */
export async function getPlanLimits(db: Kysely<DB>, uid: number): Promise<PlanLimits | null> {
  const subs = await live(db, uid)
    .leftJoin("plans", "plans.id", "subscriptions.plan_id")
    .leftJoin("plan_levels", "plan_levels.id", "plans.level_id")
    .select([
      "subscriptions.kind",
      "subscriptions.plan_id",
      "subscriptions.end_at",
      "subscriptions.traffic_quota",
      "subscriptions.traffic_used",
      "plans.name",
      "plans.level_id",
      "plan_levels.level",
      "plans.bandwidth",
      "plans.tunnel_limit",
      "plans.tunnel_peer_port_limit",
    ])
    .execute();
  const plan = subs.find((s) => s.kind === OrderType.Plan);
  if (!plan) return null;
  // A plan row gone, or its level: as if there were no plan (the inner join this replaced).
  if (plan.name === null || plan.level === null || plan.level_id === null) return null;
  const packs = subs.filter((s) => s.kind === OrderType.TrafficPack);
  const quota = [plan, ...packs].reduce((n, s) => n + Number(s.traffic_quota), 0);
  const used = [plan, ...packs].reduce((n, s) => n + Number(s.traffic_used), 0);
  const usable = used < quota;
  return {
    plan_id: plan.plan_id,
    plan_name: plan.name,
    level_id: plan.level_id,
    level: plan.level,
    bandwidth: plan.bandwidth ?? 0,
    tunnel_limit: plan.tunnel_limit ?? 0,
    tunnel_peer_port_limit: plan.tunnel_peer_port_limit ?? 0,
    traffic_quota: quota,
    traffic_used: used,
    end_at: plan.end_at,
    usable,
    ...(!usable && { reason: "流量已用尽" }),
  };
}

/**
 * Charges `bytes` of traffic: the plan first, then traffic packs, earliest expiry first. What is
 * left when everything is spent is charged to the last one, and spent subscriptions turn over quota (2).
 * Call inside a transaction. Returns whether the customer is now over quota, and then announces
 * it (subscription.changed): the frp plugin refuses an over-quota customer's traffic.
 */
export async function chargeTraffic(trx: Tx, uid: number, bytes: number): Promise<{ overQuota: boolean }> {
  if (bytes <= 0) return { overQuota: false };
  const subs = await liveSubscriptions(trx, uid);
  const plan = subs.find((s) => s.kind === OrderType.Plan);
  if (!plan) {
    trx.changes.emit("subscription.changed", { uid });
    return { overQuota: true };
  }
  const order = [plan, ...subs.filter((s) => s.kind === OrderType.TrafficPack)];
  await warnAtThreshold(trx, uid, plan, order, bytes);
  let left = bytes;
  for (const [i, s] of order.entries()) {
    const room = Math.max(0, Number(s.traffic_quota) - Number(s.traffic_used));
    const isLast = i === order.length - 1;
    const take = isLast ? left : Math.min(room, left);
    if (take > 0 || room === 0) {
      const used = Number(s.traffic_used) + take;
      const spent = used >= Number(s.traffic_quota);
      await trx
        .updateTable("subscriptions")
        .set((eb) => ({
          traffic_used: eb("traffic_used", "+", take),
          ...(spent && { status: SubscriptionStatus.OverQuota }),
        }))
        .where("id", "=", s.id)
        .execute();
    }
    left -= take;
    if (left <= 0 && !isLast) break;
  }
  const after = await getPlanLimits(trx, uid);
  if (!after?.usable) trx.changes.emit("subscription.changed", { uid });
  return { overQuota: !after?.usable };
}

/** The share of the quota (plan and packs together) past which the customer hears of it once. */
export const QUOTA_WARN_RATIO = 0.8;
/** Every share the customer hears of, each once per period: 80 %, 95 % and used up. */
const QUOTA_LINES = [
  ["quota.80", QUOTA_WARN_RATIO],
  ["quota.95", 0.95],
  ["quota.100", 1],
] as const;

/**
 * Records "quota.80" (and "quota.95", "quota.100") when this charge takes the customer's usage
 * across that share of their quota, in the charging transaction: only the crossing charge does
 * (not every poll after it), and the key (the plan subscription and its end, which a renewal
 * moves) keeps it to once per period even if a quota grown meanwhile lets usage cross again.
 */
async function warnAtThreshold(
  trx: Tx,
  uid: number,
  plan: SubscriptionRow,
  counted: SubscriptionRow[],
  bytes: number,
): Promise<void> {
  const quota = counted.reduce((n, s) => n + Number(s.traffic_quota), 0);
  const before = counted.reduce((n, s) => n + Number(s.traffic_used), 0);
  if (quota <= 0) return;
  for (const [type, ratio] of QUOTA_LINES) {
    const line = quota * ratio;
    if (before >= line || before + bytes < line) continue;
    await recordEvent(
      trx,
      type,
      { uid, subscription_id: plan.id, period_end: plan.end_at, used: before + bytes, quota },
      { key: `${type}:${plan.id}:${plan.end_at ?? "open"}` },
    );
  }
}
