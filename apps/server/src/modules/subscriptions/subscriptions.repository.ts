import { OrderType, SubscriptionStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { SubscriptionRow } from "./subscriptions.table";

/** All Kysely code for subscriptions. */

/** A subscription by id. */
export const findSubscription = (db: Kysely<DB>, id: number): Promise<SubscriptionRow | undefined> =>
  db.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();

/** The subscription an order opened, found by the order's trade id, for its owner only. */
export const findSubscriptionByTrade = (
  db: Kysely<DB>,
  uid: number,
  tradeId: string,
): Promise<SubscriptionRow | undefined> =>
  db
    .selectFrom("subscriptions")
    .selectAll()
    .where("uid", "=", uid)
    .where("trade_id", "=", tradeId)
    .orderBy("id")
    .executeTakeFirst();

/** Plan subscriptions that count now (in use or over quota, not ended). */
export const livePlanSubscriptions = (db: Kysely<DB>, uid: number, now: Date): Promise<SubscriptionRow[]> =>
  db
    .selectFrom("subscriptions")
    .selectAll()
    .where("uid", "=", uid)
    .where("kind", "=", OrderType.Plan)
    .where("status", "in", [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota])
    .where((eb) => eb.or([eb("end_at", "is", null), eb("end_at", ">", now.toISOString())]))
    .orderBy("id")
    .execute();
