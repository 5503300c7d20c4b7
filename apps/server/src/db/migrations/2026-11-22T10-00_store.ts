import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * The store: orders, promo codes, gift cards, recharge promotions, job leases, and what a
 * subscription was paid (for pro-rata upgrade credit). Frozen: never edit, add a new migration.
 * Money is integer fen (bigint), times ISO-8601 UTC text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (name: string) => (t: any) =>
    pg
      ? t.addColumn(name, "serial", (c: any) => c.primaryKey())
      : t.addColumn(name, "integer", (c: any) => c.primaryKey().autoIncrement());

  await id("id")(db.schema.createTable("orders"))
    .addColumn("trade_id", "text", (c: any) => c.notNull().unique())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("type", "integer", (c: any) => c.notNull())
    .addColumn("pay_method", "integer", (c: any) => c.notNull())
    .addColumn("pay_type", "text")
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("name", "text", (c: any) => c.notNull())
    .addColumn("action", "text", (c: any) => c.notNull())
    .addColumn("plan_id", "integer")
    .addColumn("period", "text")
    .addColumn("months", "integer")
    .addColumn("fee", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("price", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("discount_code_id", "integer")
    .addColumn("discount_code", "text")
    .addColumn("code_discount", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("upgrade_credit", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("bonus", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("amount", "bigint", (c: any) => c.notNull())
    .addColumn("subscription_id", "integer")
    .addColumn("replaces_subscription_id", "integer")
    .addColumn("fulfilment", "text")
    .addColumn("sub_end_before", "text")
    .addColumn("sub_end_after", "text")
    .addColumn("quota_added", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("value_added", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("note", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("pay_url", "text")
    .addColumn("channel_trade_id", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("expires_at", "text", (c: any) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("closed_at", "text")
    .addColumn("refunded_at", "text")
    .execute();
  await db.schema.createIndex("orders_uid").on("orders").columns(["uid", "id"]).execute();
  await db.schema.createIndex("orders_status_expires").on("orders").columns(["status", "expires_at"]).execute();
  await db.schema.createIndex("orders_channel_trade_id").on("orders").column("channel_trade_id").execute();
  await db.schema.createIndex("orders_subscription").on("orders").column("subscription_id").execute();

  await id("id")(db.schema.createTable("discount_codes"))
    .addColumn("code", "text", (c: any) => c.notNull().unique())
    .addColumn("discount", "real", (c: any) => c.notNull())
    .addColumn("expire_date", "text", (c: any) => c.notNull())
    .addColumn("use_limit", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("used_count", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("user_limit", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("plan_ids", "text", (c: any) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id("card_id")(db.schema.createTable("gift_cards"))
    .addColumn("card_number", "text", (c: any) => c.notNull().unique())
    .addColumn("batch_no", "text", (c: any) => c.notNull())
    .addColumn("type", "integer", (c: any) => c.notNull())
    .addColumn("card_value", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("plan_id", "integer")
    .addColumn("cycle_number", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("expire_date", "text", (c: any) => c.notNull())
    .addColumn("one_user_limit", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("used_uid", "integer")
    .addColumn("sub_time", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("gift_cards_batch").on("gift_cards").columns(["batch_no", "used_uid"]).execute();

  await id("id")(db.schema.createTable("recharge_promotions"))
    .addColumn("name", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("min_amount", "bigint", (c: any) => c.notNull())
    .addColumn("bonus", "bigint", (c: any) => c.notNull())
    .addColumn("start_at", "text", (c: any) => c.notNull())
    .addColumn("end_at", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  // One row per background job: whoever holds an unexpired lease runs it (several processes, one DB).
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();

  // Money paid for a subscription over its life (purchase + extensions): the base of pro-rata credit.
  await db.schema
    .alterTable("subscriptions")
    .addColumn("paid_amount", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("subscriptions_status_end").on("subscriptions").columns(["status", "end_at"]).execute();
  await db.schema.createIndex("subscriptions_trade_id").on("subscriptions").column("trade_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("subscriptions_trade_id").execute();
  await db.schema.dropIndex("subscriptions_status_end").execute();
  await db.schema.alterTable("subscriptions").dropColumn("paid_amount").execute();
  for (const t of ["job_leases", "recharge_promotions", "gift_cards", "discount_codes", "orders"]) {
    await db.schema.dropTable(t).execute();
  }
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
