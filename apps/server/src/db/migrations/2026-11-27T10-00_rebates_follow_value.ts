import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Rebates follow the money (issue 30, docs/affiliate.md):
 * - `aff_rebates.refunded`: fen of the rebated order's payment that has left since, for rebate
 *   purposes — its share of refunds (including refunds of other orders that paid its value back:
 *   an opening refund with its extensions, an upgrade bought with its credit) and its share of
 *   upgrade credit moved to the balance. The rebate kept is ⌊(order_amount − refunded) × rate⌋.
 *   Existing rows start from what their order records as refunded.
 * - `aff_rebates.invitee_id_hash`: the invitee's verified identity (keyed ID-number hash) when the
 *   rebate was released, kept so that operators still see a shared identity after a reset.
 * - `orders.client_ip`: the address the order was placed from (the operator's "same payer" signal).
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("aff_rebates")
    .addColumn("refunded", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("aff_rebates").addColumn("invitee_id_hash", "text").execute();
  await db.schema.alterTable("orders").addColumn("client_ip", "text").execute();
  await sql`update aff_rebates set refunded = coalesce((select o.refunded_amount from orders o
    where o.trade_id = aff_rebates.trade_id), 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("client_ip").execute();
  await db.schema.alterTable("aff_rebates").dropColumn("invitee_id_hash").execute();
  await db.schema.alterTable("aff_rebates").dropColumn("refunded").execute();
}
