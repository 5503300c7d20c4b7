import type { Kysely } from "kysely";

/**
 * Identity verification (modules/verify): one row per user holding the current request, masked
 * name and number, and a keyed hash of the number. The hash is unique while a number is held
 * (processing or done) and NULL once rejected or reset, so one number verifies one account even
 * under concurrent submissions. The full number is not stored.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("verifications")
    .addColumn("uid", "integer", (c) => c.primaryKey())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("real_name_masked", "text", (c) => c.notNull())
    .addColumn("id_number_masked", "text", (c) => c.notNull())
    .addColumn("id_hash", "text")
    .addColumn("reason", "text")
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("request_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("verifications_id_hash").on("verifications").column("id_hash").unique().execute();
  await db.schema.createIndex("verifications_request_id").on("verifications").column("request_id").unique().execute();
  await db.schema.createIndex("verifications_status").on("verifications").column("status").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("verifications").execute();
}
