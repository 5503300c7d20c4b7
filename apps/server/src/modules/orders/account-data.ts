import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The orders module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The customer's orders, for the export: amounts, dates, status; no payment link. */
export function ordersDataOf(db: Kysely<DB>, uid: number) {
  return db
    .selectFrom("orders")
    .select([
      "trade_id",
      "type",
      "name",
      "status",
      "pay_method",
      "price",
      "discount_code",
      "code_discount",
      "amount",
      "refunded_amount",
      "client_ip",
      "created_at",
      "paid_at",
      "refunded_at",
    ])
    .where("uid", "=", uid)
    .orderBy("id")
    .execute();
}

/**
 * Keeps the account's orders as accounting records (trade ids, amounts, dates, under the
 * pseudonymous uid) and erases what ties them to a person: the address the order came from and
 * the payment link.
 */
export async function pseudonymiseOrdersOf(trx: Tx, uid: number): Promise<void> {
  await trx.updateTable("orders").set({ client_ip: null, pay_url: null }).where("uid", "=", uid).execute();
}
