import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Customer webhooks (modules/webhooks, docs/webhooks.md): the endpoints (the signing secret sealed
 * with AES-256-GCM) and one delivery row per (event, endpoint), which is also the delivery log.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable("webhook_endpoints"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("url", "text", (c: any) => c.notNull())
    .addColumn("description", "text", (c: any) => c.notNull())
    // comma-separated WebhookEventType values
    .addColumn("events", "text", (c: any) => c.notNull())
    .addColumn("secret", "text", (c: any) => c.notNull())
    .addColumn("status", "text", (c: any) => c.notNull())
    .addColumn("paused_reason", "text")
    .addColumn("paused_at", "text")
    .addColumn("failure_streak", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("first_failure_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoints_uid").on("webhook_endpoints").column("uid").execute();

  await id(db.schema.createTable("webhook_deliveries"))
    .addColumn("endpoint_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    // "<endpoint>:<outbox event>" for event deliveries (at most one each); NULL for test sends and redeliveries
    .addColumn("dedupe_key", "text", (c: any) => c.unique())
    // the payload's id ("evt_<outbox id>", "evt_test_…")
    .addColumn("event_id", "text", (c: any) => c.notNull())
    .addColumn("event_type", "text", (c: any) => c.notNull())
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("status", "text", (c: any) => c.notNull())
    .addColumn("attempts", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("next_at", "text")
    .addColumn("lease_until", "text")
    .addColumn("response_code", "integer")
    .addColumn("response_excerpt", "text")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("last_attempt_at", "text")
    .addColumn("redelivery_of", "integer")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  // The endpoint's log (newest first) and its pending count; the worker's due scan.
  await db.schema
    .createIndex("webhook_deliveries_endpoint")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "id"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .columns(["status", "next_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhook_endpoints").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
