import type { Kysely } from "kysely";
import { sql } from "kysely";

/** Support tickets, their messages and image attachments. */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("tickets"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("category", "text", (c: any) => c.notNull())
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("tun_id", "integer")
    .addColumn("user_unread", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("last_reply", "text", (c: any) => c.notNull())
    .addColumn("last_reply_staff", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("last_reply_at", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("closed_at", "text")
    .execute();
  await db.schema.createIndex("tickets_uid").on("tickets").columns(["uid", "last_reply_at"]).execute();
  await db.schema.createIndex("tickets_status").on("tickets").columns(["status", "last_reply_at"]).execute();
  await id(db.schema.createTable("ticket_messages"))
    .addColumn("ticket_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("staff", "integer", (c: any) => c.notNull())
    .addColumn("content", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("ticket_messages_ticket").on("ticket_messages").columns(["ticket_id", "id"]).execute();
  await id(db.schema.createTable("ticket_attachments"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("ticket_id", "integer")
    .addColumn("message_id", "integer")
    .addColumn("file", "text", (c: any) => c.notNull())
    .addColumn("mime", "text", (c: any) => c.notNull())
    .addColumn("size", "integer", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("ticket_attachments_msg").on("ticket_attachments").columns(["message_id"]).execute();
  await db.schema
    .createIndex("ticket_attachments_uid")
    .on("ticket_attachments")
    .columns(["uid", "ticket_id"])
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
  await db.schema.dropTable("ticket_attachments").execute();
  await db.schema.dropTable("ticket_messages").execute();
  await db.schema.dropTable("tickets").execute();
}
