import { type PlanPeriod, PlanPeriods, SubscriptionStatus, type SubscriptionView } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { SubscriptionRow } from "./subscriptions.table";

/** A subscription joined with what its view needs from the plan and level, and the plan that replaced it. */
export function subscriptionViewQuery(db: Kysely<DB>) {
  return db
    .selectFrom("subscriptions")
    .leftJoin("plans", "plans.id", "subscriptions.plan_id")
    .leftJoin("plan_levels", "plan_levels.id", "plans.level_id")
    .leftJoin("subscriptions as rs", "rs.id", "subscriptions.replaced_by")
    .leftJoin("plans as rp", "rp.id", "rs.plan_id")
    .selectAll("subscriptions")
    .select([
      "plans.name as plan_name",
      "plans.bandwidth as bandwidth",
      "plans.tunnel_limit as tunnel_limit",
      "plans.tunnel_peer_port_limit as tunnel_peer_port_limit",
      "plans.monthly_fee as monthly_fee",
      "plans.quarterly_fee as quarterly_fee",
      "plans.semiannual_fee as semiannual_fee",
      "plans.annual_fee as annual_fee",
      "plan_levels.name as level_name",
      "rp.name as replaced_by_plan",
    ]);
}
export type SubscriptionViewRow = SubscriptionRow & {
  plan_name: string | null;
  bandwidth: number | null;
  tunnel_limit: number | null;
  tunnel_peer_port_limit: number | null;
  monthly_fee: number | null;
  quarterly_fee: number | null;
  semiannual_fee: number | null;
  annual_fee: number | null;
  level_name: string | null;
  replaced_by_plan: string | null;
};

/**
 * A subscription as the customer sees it. Renewable: live, paid (it ends and came from an order)
 * and its plan still sells at least one period.
 */
export function presentSubscriptionRow(row: SubscriptionViewRow, now: Date): SubscriptionView {
  const quota = Number(row.traffic_quota);
  const used = Number(row.traffic_used);
  const live =
    (row.status === SubscriptionStatus.InUse || row.status === SubscriptionStatus.OverQuota) &&
    row.end_at !== null &&
    Date.parse(row.end_at) > now.getTime();
  const sells = PlanPeriods.some((p) => row[`${p}_fee`] !== null && row[`${p}_fee`] !== undefined);
  return {
    id: row.id,
    plan_id: row.plan_id,
    plan_name: row.plan_name ?? "已删除的套餐",
    kind: row.kind,
    period: row.period as PlanPeriod | null,
    start_at: row.start_at,
    end_at: row.end_at,
    traffic_quota: quota,
    traffic_used: used,
    traffic_left: Math.max(0, quota - used),
    status: row.status,
    trade_id: row.trade_id,
    free: row.end_at === null,
    free_quota: Number(row.free_quota),
    replaced_by:
      row.replaced_by === null ? null : { id: row.replaced_by, plan_name: row.replaced_by_plan ?? "已删除的套餐" },
    carried_quota: Number(row.carried_quota),
    renewable: live && row.trade_id !== null && row.plan_name !== null && sells,
    bandwidth: row.bandwidth ?? 0,
    tunnel_limit: row.tunnel_limit ?? 0,
    tunnel_peer_port_limit: row.tunnel_peer_port_limit ?? 0,
    level_name: row.level_name,
    created_at: row.created_at,
  };
}

/** One subscription's view. */
export async function presentSubscription(db: Kysely<DB>, sub: SubscriptionRow, now: Date): Promise<SubscriptionView> {
  const row = await subscriptionViewQuery(db).where("subscriptions.id", "=", sub.id).executeTakeFirstOrThrow();
  return presentSubscriptionRow(row as SubscriptionViewRow, now);
}
