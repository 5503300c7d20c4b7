import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Uptime (docs/uptime.md), owned by the uptime module.
 * - uptime_changes: every status change of a tunnel (online / offline with a cause) and of a node
 *   (up / down), copied from the domain event that recorded it in the change's own transaction
 *   (`event_id` unique: the handler runs at least once). An interval runs from one change to the
 *   subject's next. Pruned after 90 days (the last change before the cut-off is kept: it is the
 *   state the window starts in).
 * - uptime_pages: a tunnel's public status page (off by default; an unguessable slug).
 * - uptime_maintenance: maintenance windows operators announce on the provider status page.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable("uptime_changes"))
    // "tunnel" or "node"
    .addColumn("subject", "text", (c: any) => c.notNull())
    .addColumn("subject_id", "integer", (c: any) => c.notNull())
    // a tunnel's node when it changed (its node's downtime is its own); the node itself for a node
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("up", "integer", (c: any) => c.notNull())
    // UptimeCause of an offline change, null when up
    .addColumn("cause", "text")
    .addColumn("at", "text", (c: any) => c.notNull())
    .addColumn("event_id", "integer", (c: any) => c.notNull().unique())
    .execute();
  await db.schema
    .createIndex("uptime_changes_subject")
    .on("uptime_changes")
    .columns(["subject", "subject_id", "at"])
    .execute();
  await db.schema.createIndex("uptime_changes_at").on("uptime_changes").column("at").execute();

  await db.schema
    .createTable("uptime_pages")
    .addColumn("tun_id", "integer", (c: any) => c.primaryKey())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("slug", "text", (c: any) => c.notNull().unique())
    .addColumn("enabled", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();

  await id(db.schema.createTable("uptime_maintenance"))
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("starts_at", "text", (c: any) => c.notNull())
    .addColumn("ends_at", "text", (c: any) => c.notNull())
    // JSON array of node ids
    .addColumn("node_ids", "text", (c: any) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("created_by", "integer", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("uptime_maintenance_ends").on("uptime_maintenance").column("ends_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("uptime_maintenance").execute();
  await db.schema.dropTable("uptime_pages").execute();
  await db.schema.dropTable("uptime_changes").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
