import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { shanghaiDate } from "../../shared/time";
import type { TopupRuleRow } from "./autopay.table";

/** All Kysely code for the autopay tables (their only writer is this module). */

/** The Asia/Shanghai calendar month of `now`, YYYY-MM: the period of the top-up cap. */
export const shanghaiMonth = (now: Date): string => shanghaiDate(now).slice(0, 7);

export const findTopupRule = (db: Kysely<DB>, uid: number): Promise<TopupRuleRow | undefined> =>
  db.selectFrom("autopay_topup_rules").selectAll().where("uid", "=", uid).executeTakeFirst();

export const autoRenewedIds = async (db: Kysely<DB>, uid: number): Promise<number[]> =>
  (
    await db
      .selectFrom("autopay_renewals")
      .select("subscription_id")
      .where("uid", "=", uid)
      .orderBy("subscription_id")
      .execute()
  ).map((r) => r.subscription_id);

/** Fen automatic top-ups spent by `uid` in the Shanghai month of `now` (what the cap counts). */
export async function topupSpent(db: Kysely<DB>, uid: number, now: Date): Promise<number> {
  const r = await db
    .selectFrom("autopay_purchases")
    .select((eb) => eb.fn.sum<number>("amount").as("n"))
    .where("uid", "=", uid)
    .where("kind", "=", "topup")
    .where("month", "=", shanghaiMonth(now))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Whether an automatic purchase with this key was made (a period renewed, a crossing topped up). */
export const purchaseMade = async (db: Kysely<DB>, key: string): Promise<boolean> =>
  Boolean(
    await db.selectFrom("autopay_purchases").select("dedupe_key").where("dedupe_key", "=", key).executeTakeFirst(),
  );

/** Records an automatic purchase; the key's primary key refuses a second one of the same period or crossing. */
export async function recordPurchase(
  db: Kysely<DB>,
  p: { key: string; uid: number; kind: "renewal" | "topup"; tradeId: string; amount: number; now: Date },
): Promise<void> {
  await db
    .insertInto("autopay_purchases")
    .values({
      dedupe_key: p.key,
      uid: p.uid,
      kind: p.kind,
      trade_id: p.tradeId,
      amount: p.amount,
      month: shanghaiMonth(p.now),
      created_at: p.now.toISOString(),
    })
    .execute();
}
