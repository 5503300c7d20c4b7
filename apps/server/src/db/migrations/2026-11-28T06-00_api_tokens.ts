import type { Kysely } from "kysely";

/**
 * Customers' API tokens (modules/apitokens, docs/api-tokens.md). `id` is the token's public part
 * (`brw_<id>_<secret>`), so verifying one is a primary-key read; only the SHA-256 of the secret is
 * kept. `scopes` is the comma-separated list the token grants.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("secret_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("last_used_ip", "text")
    .addColumn("revoked_at", "text")
    .execute();
  // The owner's list and the live-token count under the owner's lock.
  await db.schema.createIndex("api_tokens_uid").on("api_tokens").columns(["uid", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_tokens").execute();
}
