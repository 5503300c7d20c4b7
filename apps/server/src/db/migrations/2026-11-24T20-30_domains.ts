import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Customer domains (modules/domains): one row per customer and domain, with the TXT token the
 * customer publishes at `_burrow-challenge.<domain>`, the node its CNAME points at, and its state.
 * `verified_domain` equals `domain` while the row holds the name (verified, or flagged within its
 * grace period) and is NULL otherwise; its unique index lets one customer hold a name at a time,
 * even under concurrent verifications. Areas get `icp_required`: domains whose node lies in such
 * an area need an ICP filing number.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const t = db.schema.createTable("domains");
  await (pg
    ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
    : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement())
  )
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("domain", "text", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("token", "text", (c: any) => c.notNull())
    .addColumn("status", "text", (c: any) => c.notNull())
    .addColumn("verified_domain", "text")
    .addColumn("icp_no", "text")
    .addColumn("problem", "text")
    .addColumn("verified_at", "text")
    .addColumn("checked_at", "text")
    .addColumn("flagged_at", "text")
    .addColumn("unbound_at", "text")
    .addColumn("unbind_reason", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("domains_uid_domain").on("domains").columns(["uid", "domain"]).unique().execute();
  await db.schema.createIndex("domains_verified").on("domains").column("verified_domain").unique().execute();
  await db.schema.createIndex("domains_domain").on("domains").column("domain").execute();
  await db.schema.createIndex("domains_status").on("domains").columns(["status", "checked_at"]).execute();
  await db.schema
    .alterTable("areas")
    .addColumn("icp_required", "integer", (c: any) => c.notNull().defaultTo(0))
    .execute();
}

/** The same probe as the store migration: only PostgreSQL answers version(). */
async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("areas").dropColumn("icp_required").execute();
  await db.schema.dropTable("domains").execute();
}
