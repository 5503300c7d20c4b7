import type { Kysely } from "kysely";
import { sql } from "kysely";

/** Invoice requests and the orders on them (one live invoice per order: a unique index). */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("invoices"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("title_type", "text", (c: any) => c.notNull())
    .addColumn("title", "text", (c: any) => c.notNull())
    .addColumn("tax_no", "text")
    .addColumn("email", "text", (c: any) => c.notNull())
    .addColumn("amount", "bigint", (c: any) => c.notNull())
    .addColumn("invoice_no", "text")
    .addColumn("file", "text")
    .addColumn("file_size", "integer")
    .addColumn("reason", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("user_unread", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("flagged", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("flag_note", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("handled_at", "text")
    .addColumn("handled_by", "integer")
    .execute();
  await db.schema.createIndex("invoices_uid").on("invoices").columns(["uid", "id"]).execute();
  await db.schema.createIndex("invoices_status").on("invoices").columns(["status", "id"]).execute();
  await id(db.schema.createTable("invoice_orders"))
    .addColumn("invoice_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("trade_id", "text", (c: any) => c.notNull())
    .addColumn("name", "text", (c: any) => c.notNull())
    .addColumn("type", "integer", (c: any) => c.notNull())
    .addColumn("amount", "bigint", (c: any) => c.notNull())
    .addColumn("live_trade_id", "text")
    .execute();
  await db.schema.createIndex("invoice_orders_invoice").on("invoice_orders").columns(["invoice_id"]).execute();
  await db.schema.createIndex("invoice_orders_trade").on("invoice_orders").columns(["trade_id"]).execute();
  // NULLs never collide (SQLite and PostgreSQL alike): returned and cancelled lines hold null.
  await db.schema.createIndex("invoice_orders_live").on("invoice_orders").columns(["live_trade_id"]).unique().execute();
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
  await db.schema.dropTable("invoice_orders").execute();
  await db.schema.dropTable("invoices").execute();
}
