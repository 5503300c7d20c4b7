import {
  type CurrentPlan,
  fenToYuan,
  OrderType,
  type PurchaseKind,
  type StoreCatalog,
  type StoreLevelGroup,
  type StorePlan,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import { findPlanWithLevel, listPlansOnSale, type PlanWithLevel } from "../plans/plans.repository";
import { planPeriods } from "../plans/pricing";
import { type CurrentPlanSub, currentPlanSubscription } from "../subscriptions/subscriptions.service";
import { subscriptionValue } from "../subscriptions/value";

/** The store: the plans on sale as a customer sees them, with what buying each would do for them. */

/** What buying `plan` would do for a customer whose current plan is `current`. */
function purchaseKind(current: CurrentPlanSub | null, plan: PlanWithLevel, now: Date): [PurchaseKind, string] {
  if (plan.type === OrderType.TrafficPack) {
    return current ? ["new", ""] : ["refused", "流量包需要在套餐有效期内使用，请先开通套餐"];
  }
  if (!current || current.free) return ["new", ""];
  if (current.plan.id === plan.id) return ["extend", "已是当前套餐，购买将顺延到期时间"];
  if (plan.level > current.plan.level) {
    const v = subscriptionValue(current.sub, now);
    return [
      "upgrade",
      `立即升级；原套餐剩余 ${v.time.unused} 天，按剩余时间与流量折合 ${fenToYuan(v.remaining)} 元抵扣新套餐费用`,
    ];
  }
  return [
    "refused",
    plan.level < current.plan.level
      ? `当前套餐「${current.plan.name}」等级更高，不能购买低等级套餐`
      : `当前套餐「${current.plan.name}」与此套餐同等级，不能切换`,
  ];
}

function presentStorePlan(plan: PlanWithLevel, current: CurrentPlanSub | null, now: Date): StorePlan {
  const [purchase, note] = purchaseKind(current, plan, now);
  return {
    id: plan.id,
    name: plan.name,
    tag: plan.tag,
    simple_desc: plan.simple_desc,
    traffic: plan.traffic,
    type: plan.type,
    level_id: plan.level_id,
    level_name: plan.level_name,
    level: plan.level,
    sort: plan.sort,
    bandwidth: plan.bandwidth,
    tunnel_limit: plan.tunnel_limit,
    tunnel_peer_port_limit: plan.tunnel_peer_port_limit,
    periods: planPeriods(plan),
    purchase,
    purchase_note: note,
  };
}

/** A plan as the store shows it to this customer (also used for the renewal page). */
export async function presentStorePlanFor(
  db: Kysely<DB>,
  uid: number,
  plan: PlanWithLevel,
  now: Date,
): Promise<StorePlan> {
  return presentStorePlan(plan, await currentPlanSubscription(db, uid, now), now);
}

function presentCurrent(c: CurrentPlanSub | null): CurrentPlan | null {
  if (!c) return null;
  return {
    subscription_id: c.sub.id,
    plan_id: c.plan.id,
    plan_name: c.plan.name,
    level: c.plan.level,
    free: c.free,
    end_at: c.sub.end_at,
    status: c.sub.status,
  };
}

/** GET /user/plan: plans on sale grouped by level, each with its prices and what buying it would do. */
export async function storeCatalog(ctx: AppContext, uid: number, type?: number): Promise<StoreCatalog> {
  const now = new Date();
  const current = await currentPlanSubscription(ctx.db, uid, now);
  const plans = await listPlansOnSale(ctx.db, type);
  const levels: StoreLevelGroup[] = [];
  for (const plan of plans) {
    const view = presentStorePlan(plan, current, now);
    // A plan without any period on sale cannot be bought: it is not shown.
    if (!view.periods.length) continue;
    let group = levels.find((g) => g.level_id === plan.level_id);
    if (!group) {
      group = { level_id: plan.level_id, name: plan.level_name ?? "", level: plan.level, plans: [] };
      levels.push(group);
    }
    group.plans.push(view);
  }
  return { current: presentCurrent(current), levels };
}

/** GET /user/plan/{planID}: one plan on sale (404 otherwise). */
export async function storePlan(ctx: AppContext, uid: number, planId: number): Promise<StorePlan> {
  const plan = await findPlanWithLevel(ctx.db, planId);
  if (plan?.on_sale !== 1) throw notFound("套餐");
  const view = await presentStorePlanFor(ctx.db, uid, plan, new Date());
  if (!view.periods.length) throw notFound("套餐");
  return view;
}
