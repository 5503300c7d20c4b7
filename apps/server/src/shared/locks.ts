import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { notFound } from "./errors";

/**
 * Serialises every change to one customer's money and subscriptions: call it first inside the
 * transaction. A no-op update takes the row lock on PostgreSQL (held until commit) and the write
 * lock on SQLite, so two purchases, payments or redemptions of the same customer never decide
 * on the same stale state (e.g. both seeing "no plan" and opening two plans).
 * @throws 404 when the user does not exist.
 */
export async function lockUser(trx: Kysely<DB>, uid: number): Promise<void> {
  const r = await trx
    .updateTable("users")
    .set((eb) => ({ balance: eb.ref("balance") }))
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw notFound("用户");
}
