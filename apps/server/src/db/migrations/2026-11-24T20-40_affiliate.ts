import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Affiliate programme (modules/affiliate): a rebate per qualifying paid order of an invitee (one
 * per order: the unique trade id makes a repeated paid hook harmless), and withdrawal requests.
 * Amounts are integer fen. Invite codes and the inviter stay on users (users module).
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (t: any) =>
    pg
      ? t.addColumn("id", "serial", (c: any) => c.primaryKey())
      : t.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable("aff_rebates"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("invitee_uid", "integer", (c: any) => c.notNull())
    .addColumn("invitee_phone", "text", (c: any) => c.notNull())
    .addColumn("trade_id", "text", (c: any) => c.notNull())
    .addColumn("order_type", "integer", (c: any) => c.notNull())
    .addColumn("order_amount", "integer", (c: any) => c.notNull())
    .addColumn("rate_bp", "integer", (c: any) => c.notNull())
    .addColumn("amount", "integer", (c: any) => c.notNull())
    .addColumn("reversed", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("state", "integer", (c: any) => c.notNull())
    .addColumn("release_at", "text", (c: any) => c.notNull())
    .addColumn("released_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("aff_rebates_trade_id").on("aff_rebates").column("trade_id").unique().execute();
  await db.schema.createIndex("aff_rebates_uid").on("aff_rebates").columns(["uid", "state"]).execute();
  await db.schema.createIndex("aff_rebates_release").on("aff_rebates").columns(["state", "release_at"]).execute();
  await id(db.schema.createTable("aff_withdrawals"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("amount", "integer", (c: any) => c.notNull())
    .addColumn("method", "text", (c: any) => c.notNull())
    .addColumn("account", "text")
    .addColumn("account_name", "text")
    .addColumn("bank_name", "text")
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("payout_ref", "text")
    .addColumn("reason", "text")
    .addColumn("operator_uid", "integer")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("handled_at", "text")
    .execute();
  await db.schema.createIndex("aff_withdrawals_uid").on("aff_withdrawals").columns(["uid", "status"]).execute();
  await db.schema.createIndex("aff_withdrawals_status").on("aff_withdrawals").columns(["status", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("aff_withdrawals").execute();
  await db.schema.dropTable("aff_rebates").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
