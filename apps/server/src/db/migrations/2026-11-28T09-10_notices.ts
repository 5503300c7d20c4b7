import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Notices (modules/notices, docs/notices.md): the notification centre's items, one delivery row
 * per (event, person, channel) that the senders work through (delayed ones: tunnel status,
 * debounced), each person's channel choice per event type, and their verified notice e-mail.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable("notices"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("type", "text", (c: any) => c.notNull())
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("link", "text")
    .addColumn("event_id", "integer", (c: any) => c.notNull())
    .addColumn("read_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    // One notice per person and event: the handler runs at least once.
    .addUniqueConstraint("notices_uid_event", ["uid", "event_id"])
    .execute();
  // The list (newest first) and the unread count; the pruning by age.
  await db.schema.createIndex("notices_uid_read").on("notices").columns(["uid", "read_at", "id"]).execute();
  await db.schema.createIndex("notices_created").on("notices").column("created_at").execute();

  await id(db.schema.createTable("notice_deliveries"))
    .addColumn("event_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("type", "text", (c: any) => c.notNull())
    .addColumn("channel", "text", (c: any) => c.notNull())
    // What debouncing groups by ("tunnel:12"), null for the rest.
    .addColumn("subject", "text")
    .addColumn("event_at", "text", (c: any) => c.notNull())
    .addColumn("due_at", "text", (c: any) => c.notNull())
    .addColumn("status", "text", (c: any) => c.notNull())
    .addColumn("attempts", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("sent_at", "text")
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("body", "text", (c: any) => c.notNull())
    .addColumn("link", "text")
    .addUniqueConstraint("notice_deliveries_once", ["event_id", "uid", "channel"])
    .execute();
  await db.schema.createIndex("notice_deliveries_due").on("notice_deliveries").columns(["status", "due_at"]).execute();
  await db.schema
    .createIndex("notice_deliveries_subject")
    .on("notice_deliveries")
    .columns(["subject", "uid", "channel"])
    .execute();

  await db.schema
    .createTable("notice_prefs")
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("type", "text", (c: any) => c.notNull())
    // comma-separated NoticeChannel values besides "site" (always on); "" for none
    .addColumn("channels", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .addPrimaryKeyConstraint("notice_prefs_pk", ["uid", "type"])
    .execute();

  await db.schema
    .createTable("notice_emails")
    .addColumn("uid", "integer", (c: any) => c.primaryKey())
    .addColumn("email", "text", (c: any) => c.notNull())
    .addColumn("verified_at", "text")
    .addColumn("code_hash", "text")
    .addColumn("code_expires_at", "text")
    .addColumn("code_attempts", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("notice_emails").execute();
  await db.schema.dropTable("notice_prefs").execute();
  await db.schema.dropTable("notice_deliveries").execute();
  await db.schema.dropTable("notices").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
