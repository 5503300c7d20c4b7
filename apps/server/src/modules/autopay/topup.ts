import { type CreateOrderBody, OrderType, PayMethod, type PlanPeriod } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { chunks } from "../../shared/chunks";
import { lockUser } from "../../shared/locks";
import { recordEvent } from "../../shared/outbox";
import { transact } from "../../shared/tx";
import { getPlanLimits } from "../subscriptions/quota";
import { findTopupRule } from "./autopay.repository";
import type { TopupRuleRow } from "./autopay.table";
import { buyAutomatically } from "./buy";

/**
 * Whether the customer's traffic left (plan and packs together) is below the rule's threshold.
 * No plan: not evaluated (a pack needs one). A zero quota has nothing left, so it is below.
 */
async function isBelow(db: Kysely<DB>, uid: number, rule: Pick<TopupRuleRow, "threshold">): Promise<boolean | null> {
  const limits = await getPlanLimits(db, uid);
  if (!limits) return null;
  const left = Math.max(0, limits.traffic_quota - limits.traffic_used);
  return left * 100 < rule.threshold * limits.traffic_quota || limits.traffic_quota <= 0;
}

/** What evaluating one customer's rule did. */
export type TopupOutcome = "bought" | "failed" | "none";

/**
 * Evaluates the top-up rules of customers whose usage was just charged (the frp poller's billing,
 * after its commit; also a rule just saved). Cheap for most: one read of the enabled rules among
 * `uids`, then a look at the quota of those; only a customer whose state crossed the threshold
 * either way is decided again under their lock (evaluateTopup).
 */
export async function evaluateTopups(ctx: AppContext, uids: Iterable<number>, now = new Date()): Promise<number> {
  let bought = 0;
  for (const ids of chunks([...new Set(uids)])) {
    const rules = await ctx.db
      .selectFrom("autopay_topup_rules")
      .selectAll()
      .where("uid", "in", ids)
      .where("enabled", "=", 1)
      .execute();
    for (const rule of rules) {
      const below = await isBelow(ctx.db, rule.uid, rule);
      if (below === null || below === (rule.below === 1)) continue;
      if ((await evaluateTopup(ctx, rule.uid, now)) === "bought") bought++;
    }
  }
  return bought;
}

/**
 * One customer's rule, under their lock: below the threshold while it was above (a crossing)
 * buys the pack once (the crossing's number is the purchase's key; the month's cap and the
 * balance are checked in buyAutomatically), and stays "below" until traffic rises above again,
 * so it buys at most once per crossing whoever evaluates it. A refused purchase records
 * "traffic.topup_failed" with the reason, once per crossing.
 */
export async function evaluateTopup(ctx: AppContext, uid: number, now = new Date()): Promise<TopupOutcome> {
  return transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const rule = await findTopupRule(trx, uid);
    if (rule?.enabled !== 1) return "none";
    const below = await isBelow(trx, uid, rule);
    if (below === null) return "none";
    const set = (v: { below: number; crossings?: number }) =>
      trx
        .updateTable("autopay_topup_rules")
        .set({ ...v, updated_at: now.toISOString() })
        .where("uid", "=", uid)
        .execute();
    if (!below) {
      if (rule.below === 1) await set({ below: 0 });
      return "none";
    }
    if (rule.below === 1) return "none";
    const crossing = rule.crossings + 1;
    await set({ below: 1, crossings: crossing });
    const body: CreateOrderBody = {
      type: OrderType.TrafficPack,
      pay_method: PayMethod.Balance,
      pay_type: "alipay",
      plan_id: rule.plan_id,
      period: rule.period as PlanPeriod,
    };
    const bought = await buyAutomatically(ctx, trx, {
      uid,
      body,
      key: `topup:${uid}:${crossing}`,
      kind: "topup",
      now,
      cap: Number(rule.monthly_cap),
      short: "余额不足，自动购买流量包失败",
    });
    if (bought.ok) return "bought";
    await recordEvent(
      trx,
      "traffic.topup_failed",
      { uid, plan_id: rule.plan_id, amount: bought.amount, message: bought.message },
      { key: `topup_failed:${uid}:${crossing}`, now },
    );
    return "failed";
  });
}
