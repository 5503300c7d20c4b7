import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * 外网检测 (issue 33 §9, docs/reach.md): one row per check a customer ran, counted under the
 * customer's lock against the hourly limit; `verdict` is filled in once the check finished (null
 * while it runs or when the process died meanwhile: the check still counts). Pruned after a day.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const table = db.schema.createTable("reach_checks");
  await (pg
    ? table.addColumn("id", "serial", (c: any) => c.primaryKey())
    : table.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement())
  )
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("tun_id", "integer", (c: any) => c.notNull())
    .addColumn("verdict", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("reach_checks_uid").on("reach_checks").columns(["uid", "created_at"]).execute();
  await db.schema.createIndex("reach_checks_created").on("reach_checks").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reach_checks").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
