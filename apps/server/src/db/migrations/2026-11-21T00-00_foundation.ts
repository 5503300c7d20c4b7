import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * The foundation schema: users and their sessions, SMS codes, login history, balance ledger,
 * audit log, settings, and the catalogue a fresh install is seeded with (areas, network types,
 * store levels, plans, subscriptions, nodes). Frozen: never edit, add a new migration instead.
 * Timestamps are ISO-8601 UTC text; money is integer fen; traffic is bytes (bigint).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (name: string) => (t: any) =>
    pg
      ? t.addColumn(name, "serial", (c: any) => c.primaryKey())
      : t.addColumn(name, "integer", (c: any) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await id("uid")(db.schema.createTable("users"))
    .addColumn("phone", "text", (c: any) => c.notNull().unique())
    .addColumn("password_hash", "text", (c: any) => c.notNull())
    .addColumn("role", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("status", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("ban_reason", "text")
    .addColumn("nickname", "text", (c: any) => c.notNull())
    .addColumn("avatar", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("balance", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("frp_token", "text", (c: any) => c.notNull().unique())
    .addColumn("invite_code", "text", (c: any) => c.notNull().unique())
    .addColumn("referrer_uid", "integer")
    .addColumn("verify_status", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("real_name", "text")
    .addColumn("id_number_masked", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("last_login_at", "text")
    .execute();
  await db.schema.createIndex("users_created_at").on("users").column("created_at").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("user_agent", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("sessions_uid").on("sessions").column("uid").execute();

  await id("id")(db.schema.createTable("sms_codes"))
    .addColumn("phone", "text", (c: any) => c.notNull())
    .addColumn("scene", "text", (c: any) => c.notNull())
    .addColumn("code_hash", "text", (c: any) => c.notNull())
    .addColumn("attempts", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("ip", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("expires_at", "text", (c: any) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("sms_codes_phone").on("sms_codes").columns(["phone", "scene"]).execute();

  await id("id")(db.schema.createTable("login_logs"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("ip", "text", (c: any) => c.notNull())
    .addColumn("user_agent", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("login_logs_uid").on("login_logs").columns(["uid", "id"]).execute();

  await id("id")(db.schema.createTable("balance_ledger"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("change", "bigint", (c: any) => c.notNull())
    .addColumn("balance_before", "bigint", (c: any) => c.notNull())
    .addColumn("balance_after", "bigint", (c: any) => c.notNull())
    .addColumn("reason", "text", (c: any) => c.notNull())
    .addColumn("order_id", "text")
    .addColumn("operator_uid", "integer")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("balance_ledger_uid").on("balance_ledger").columns(["uid", "id"]).execute();

  await id("id")(db.schema.createTable("audit_logs"))
    .addColumn("operator_uid", "integer", (c: any) => c.notNull())
    .addColumn("action", "text", (c: any) => c.notNull())
    .addColumn("target", "text", (c: any) => c.notNull())
    .addColumn("detail", "text", (c: any) => c.notNull())
    .addColumn("ip", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id("area_id")(db.schema.createTable("areas"))
    .addColumn("area_name", "text", (c: any) => c.notNull().unique())
    .addColumn("sort", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id("id")(db.schema.createTable("net_types"))
    .addColumn("name", "text", (c: any) => c.notNull().unique())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id("id")(db.schema.createTable("plan_levels"))
    .addColumn("name", "text", (c: any) => c.notNull().unique())
    .addColumn("level", "integer", (c: any) => c.notNull().unique())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  let plans = id("id")(db.schema.createTable("plans"))
    .addColumn("name", "text", (c: any) => c.notNull())
    .addColumn("tag", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("simple_desc", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("traffic", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("type", "integer", (c: any) => c.notNull())
    .addColumn("level_id", "integer", (c: any) => c.notNull())
    .addColumn("sort", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("bandwidth", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("tunnel_limit", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("tunnel_peer_port_limit", "integer", (c: any) => c.notNull().defaultTo(0));
  for (const p of ["monthly", "quarterly", "semiannual", "annual"]) {
    plans = plans
      .addColumn(`${p}_fee`, "bigint")
      .addColumn(`${p}_fee_discount`, "real", (c: any) => c.notNull().defaultTo(1));
  }
  await plans
    .addColumn("on_sale", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("is_default", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();

  await id("id")(db.schema.createTable("subscriptions"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("plan_id", "integer", (c: any) => c.notNull())
    .addColumn("kind", "integer", (c: any) => c.notNull())
    .addColumn("period", "text")
    .addColumn("start_at", "text", (c: any) => c.notNull())
    .addColumn("end_at", "text")
    .addColumn("traffic_quota", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("traffic_used", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("trade_id", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("subscriptions_uid").on("subscriptions").columns(["uid", "status"]).execute();

  await id("node_id")(db.schema.createTable("nodes"))
    .addColumn("name", "text", (c: any) => c.notNull().unique())
    .addColumn("area_id", "integer", (c: any) => c.notNull())
    .addColumn("net_type_id", "integer", (c: any) => c.notNull())
    .addColumn("level_id", "integer", (c: any) => c.notNull())
    .addColumn("host", "text", (c: any) => c.notNull())
    .addColumn("bind_port", "integer", (c: any) => c.notNull().defaultTo(7000))
    .addColumn("vhost_http_port", "integer")
    .addColumn("vhost_https_port", "integer")
    .addColumn("subdomain_host", "text")
    .addColumn("port_min", "integer", (c: any) => c.notNull().defaultTo(10000))
    .addColumn("port_max", "integer", (c: any) => c.notNull().defaultTo(60000))
    .addColumn("bandwidth", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("status", "integer", (c: any) => c.notNull().defaultTo(2))
    .addColumn("api_addr", "text", (c: any) => c.notNull())
    .addColumn("api_user", "text", (c: any) => c.notNull())
    .addColumn("api_password", "text", (c: any) => c.notNull())
    .addColumn("plugin_secret", "text", (c: any) => c.notNull())
    .addColumn("description", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("sort", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "nodes",
    "subscriptions",
    "plans",
    "plan_levels",
    "net_types",
    "areas",
    "audit_logs",
    "balance_ledger",
    "login_logs",
    "sms_codes",
    "sessions",
    "users",
    "settings",
  ]) {
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
