import {
  type AutopayState,
  type AutoRenewBody,
  OrderType,
  type PlanPeriod,
  type TopupRuleBody,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { transact } from "../../shared/tx";
import { findPlanWithLevel } from "../plans/plans.repository";
import { periodPrice } from "../plans/pricing";
import { findSubscription } from "../subscriptions/subscriptions.repository";
import { autoRenewedIds, findTopupRule, shanghaiMonth, topupSpent } from "./autopay.repository";
import { autoRenewable } from "./renew";
import { evaluateTopup } from "./topup";

/** GET /user/autopay */
export async function autopayState(ctx: AppContext, uid: number, now = new Date()): Promise<AutopayState> {
  const rule = await findTopupRule(ctx.db, uid);
  const plan = rule ? await findPlanWithLevel(ctx.db, rule.plan_id) : undefined;
  return {
    renewals: await autoRenewedIds(ctx.db, uid),
    topup: rule
      ? {
          enabled: rule.enabled === 1,
          plan_id: rule.plan_id,
          plan_name: plan?.name ?? null,
          period: rule.period as PlanPeriod,
          threshold: rule.threshold,
          monthly_cap: Number(rule.monthly_cap),
          below: rule.below === 1,
          updated_at: rule.updated_at,
        }
      : null,
    month: shanghaiMonth(now),
    spent_this_month: await topupSpent(ctx.db, uid, now),
  };
}

/**
 * PUT /user/autopay/renewal: on for one of the customer's own live paid plans (bought by an
 * order, so that it can be renewed as one); off for any of theirs. 400 naming subscription_id
 * otherwise, nothing changed.
 */
export async function setAutoRenew(ctx: AppContext, uid: number, body: AutoRenewBody): Promise<AutopayState> {
  const now = new Date();
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const sub = await findSubscription(trx, body.subscription_id);
    if (!sub || sub.uid !== uid) throw invalid("subscription_id", "没有找到该套餐");
    if (!body.enabled) {
      await trx.deleteFrom("autopay_renewals").where("subscription_id", "=", sub.id).execute();
      return;
    }
    if (!autoRenewable(sub) || Date.parse(sub.end_at ?? "") <= now.getTime()) {
      throw invalid("subscription_id", "只有有效期内、通过订单购买的付费套餐可以开启自动续费");
    }
    await trx
      .insertInto("autopay_renewals")
      .values({ subscription_id: sub.id, uid, failed_on: null, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("subscription_id").doNothing())
      .execute();
  });
  return autopayState(ctx, uid, now);
}

/**
 * PUT /user/autopay/topup: saves the rule (a traffic pack on sale, a period it is sold for, the
 * threshold, the monthly cap). A rule turned on is evaluated at once, so a customer already below
 * the threshold gets the pack now rather than at the next charge.
 */
export async function setTopupRule(ctx: AppContext, uid: number, body: TopupRuleBody): Promise<AutopayState> {
  const now = new Date();
  const plan = await findPlanWithLevel(ctx.db, body.plan_id);
  if (!plan?.on_sale || plan.type !== OrderType.TrafficPack) throw invalid("plan_id", "请选择在售的流量包");
  if (!periodPrice(plan, body.period)) throw invalid("period", "该流量包不提供此购买周期");
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const row = {
      enabled: body.enabled ? 1 : 0,
      plan_id: body.plan_id,
      period: body.period,
      threshold: body.threshold,
      monthly_cap: body.monthly_cap,
      updated_at: now.toISOString(),
    };
    await trx
      .insertInto("autopay_topup_rules")
      .values({ uid, ...row, below: 0, crossings: 0 })
      .onConflict((oc) => oc.column("uid").doUpdateSet(row))
      .execute();
  });
  if (body.enabled) await evaluateTopup(ctx, uid, now);
  return autopayState(ctx, uid, now);
}
