import type { Kysely } from "kysely";

/**
 * Indexes for the operator's overview (/super/viewInfo), where EXPLAIN showed full scans: revenue per
 * day reads orders by paid_at (covering: status, type and amount come from the index) and refunds by
 * refunded_at; banned users and connected tunnels are counted by status.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_paid_at").on("orders").columns(["paid_at", "status", "type", "amount"]).execute();
  await db.schema.createIndex("orders_refunded_at").on("orders").columns(["refunded_at", "refunded_amount"]).execute();
  await db.schema.createIndex("users_status").on("users").column("status").execute();
  await db.schema.createIndex("tunnels_status").on("tunnels").column("status").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of ["tunnels_status", "users_status", "orders_refunded_at", "orders_paid_at"])
    await db.schema.dropIndex(i).execute();
}
