import type { Kysely } from "kysely";

/**
 * The value model (modules/subscriptions/value.ts): what a subscription has given back (upgrade
 * credit, refunds), so the same value can never leave twice; and what a refund actually paid.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("subscriptions")
    .addColumn("given_back", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("orders")
    .addColumn("refunded_amount", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("refunded_amount").execute();
  await db.schema.alterTable("subscriptions").dropColumn("given_back").execute();
}
