import type { Kysely } from "kysely";

/**
 * Customers' launch tokens (modules/launch, docs/launch.md): one per customer, kept as is (the
 * installers are shown at any time, as the frp token is) with its SHA-256, which the public
 * /launch routes look it up by. Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("launch_tokens")
    .addColumn("uid", "integer", (c) => c.primaryKey())
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("launch_tokens").execute();
}
