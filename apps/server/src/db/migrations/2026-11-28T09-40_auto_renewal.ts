import type { Kysely } from "kysely";

/**
 * Automatic purchases (modules/autopay, docs/billing.md "Automatic purchases"): auto-renewal
 * switches per subscription, one top-up rule per customer, and the automatic purchases made,
 * keyed so that a period is renewed and a crossing topped up at most once whatever runs the job.
 * Orders gain `automatic` (1: bought by such a rule), shown in 我的订单.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("autopay_renewals")
    .addColumn("subscription_id", "integer", (c) => c.primaryKey())
    .addColumn("uid", "integer", (c) => c.notNull())
    // The Shanghai day of the last attempt the balance could not pay: one try (and notice) a day.
    .addColumn("failed_on", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("autopay_renewals_uid").on("autopay_renewals").column("uid").execute();

  await db.schema
    .createTable("autopay_topup_rules")
    .addColumn("uid", "integer", (c) => c.primaryKey())
    .addColumn("enabled", "integer", (c) => c.notNull())
    .addColumn("plan_id", "integer", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("threshold", "integer", (c) => c.notNull())
    .addColumn("monthly_cap", "bigint", (c) => c.notNull())
    // 1 while the traffic left is below the threshold: the next purchase waits for it to rise above.
    .addColumn("below", "integer", (c) => c.notNull().defaultTo(0))
    // How many times it went below: the key of the purchase of that crossing.
    .addColumn("crossings", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("autopay_purchases")
    // renewal:<subscription>:<end renewed> or topup:<uid>:<crossing>
    .addColumn("dedupe_key", "text", (c) => c.primaryKey())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("trade_id", "text", (c) => c.notNull())
    .addColumn("amount", "bigint", (c) => c.notNull())
    // YYYY-MM in Asia/Shanghai: the month a top-up counts against the cap
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("autopay_purchases_month")
    .on("autopay_purchases")
    .columns(["uid", "kind", "month"])
    .execute();

  await db.schema
    .alterTable("orders")
    .addColumn("automatic", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("automatic").execute();
  await db.schema.dropTable("autopay_purchases").execute();
  await db.schema.dropTable("autopay_topup_rules").execute();
  await db.schema.dropTable("autopay_renewals").execute();
}
