import type { Kysely } from "kysely";

/**
 * What a subscription was given for free (gift-card months and traffic, check-in bonus traffic),
 * so the value model (modules/subscriptions/value.ts) values only the paid part: free months or
 * traffic added to a spent plan must not make its payment refundable again.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("subscriptions")
    .addColumn("free_quota", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("subscriptions")
    .addColumn("free_ms", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("subscriptions").dropColumn("free_ms").execute();
  await db.schema.alterTable("subscriptions").dropColumn("free_quota").execute();
}
