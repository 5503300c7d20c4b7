import type { Kysely } from "kysely";

/**
 * A plan replaced by another one (the free plan by a paid plan, an upgrade) says so (issue 35 §10):
 * - `subscriptions.replaced_by`: the subscription that replaced it (null: it ended otherwise);
 * - `subscriptions.carried_quota`: bytes of its unused free traffic (check-in bonus, gift-card
 *   traffic) moved to that subscription as free traffic, instead of being lost with it.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("subscriptions").addColumn("replaced_by", "integer").execute();
  await db.schema
    .alterTable("subscriptions")
    .addColumn("carried_quota", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("subscriptions").dropColumn("carried_quota").execute();
  await db.schema.alterTable("subscriptions").dropColumn("replaced_by").execute();
}
