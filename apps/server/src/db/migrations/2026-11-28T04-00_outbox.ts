import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * The domain-event outbox (shared/outbox.ts): events recorded in the transaction of the change
 * they announce, and one delivery row per (event, handler) that the dispatchers claim with a
 * lease, retry with backoff and leave "dead" after the last attempt.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable("outbox_events"))
    .addColumn("type", "text", (c: any) => c.notNull())
    .addColumn("payload", "text", (c: any) => c.notNull())
    .addColumn("uid", "integer")
    // An event recorded at most once (e.g. "quota 80 %" per subscription and period); NULL for most.
    .addColumn("dedupe_key", "text", (c: any) => c.unique())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("fanned_out", "integer", (c: any) => c.notNull().defaultTo(0))
    .execute();
  // The dispatcher's scan for events without their delivery rows yet, and the pruning by age.
  await db.schema.createIndex("outbox_events_fan").on("outbox_events").columns(["fanned_out", "id"]).execute();
  await db.schema.createIndex("outbox_events_created").on("outbox_events").column("created_at").execute();

  await id(db.schema.createTable("outbox_deliveries"))
    .addColumn("event_id", "integer", (c: any) => c.notNull())
    .addColumn("handler", "text", (c: any) => c.notNull())
    .addColumn("status", "text", (c: any) => c.notNull())
    .addColumn("attempts", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("next_at", "text", (c: any) => c.notNull())
    .addColumn("holder", "text")
    .addColumn("lease_until", "text")
    .addColumn("last_error", "text")
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .addUniqueConstraint("outbox_deliveries_event_handler", ["event_id", "handler"])
    .execute();
  // Claims: pending rows due first; the admin list: dead ones newest first.
  await db.schema.createIndex("outbox_deliveries_due").on("outbox_deliveries").columns(["status", "next_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("outbox_deliveries").execute();
  await db.schema.dropTable("outbox_events").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
