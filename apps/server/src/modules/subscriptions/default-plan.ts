import { SubscriptionStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";
import type { Tx } from "../../shared/tx";

export const GB = 1024 ** 3;

/** The plan every new customer gets (plans.is_default = 1), if the operator has one on sale. */
export const findDefaultPlan = (db: Kysely<DB>) =>
  db.selectFrom("plans").selectAll().where("is_default", "=", 1).orderBy("id").executeTakeFirst();

/** A subscription to `plan` in force from `now` and never ending (the free plan's), with `quota` bytes. */
export const endlessSubscriptionRow = (
  uid: number,
  plan: { id: number; type: number },
  quota: number,
  now: string,
) => ({
  uid,
  plan_id: plan.id,
  kind: plan.type,
  period: null,
  start_at: now,
  end_at: null,
  traffic_quota: quota,
  status: SubscriptionStatus.InUse,
  trade_id: null,
  created_at: now,
});

/** Gives a new customer the free default plan: a subscription that never expires. */
export async function grantDefaultPlan(trx: Tx, uid: number): Promise<void> {
  const plan = await findDefaultPlan(trx);
  if (!plan) return;
  await trx
    .insertInto("subscriptions")
    .values(endlessSubscriptionRow(uid, plan, plan.traffic * GB, nowIso()))
    .execute();
  trx.changes.emit("subscription.changed", { uid });
}
