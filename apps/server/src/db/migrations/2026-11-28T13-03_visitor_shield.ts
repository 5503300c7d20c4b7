import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * 访客防护 (modules/tunnels/shield*.ts, docs/shield.md): a tunnel's allow and deny lists (JSON
 * arrays of IPs and CIDRs) and its ban rule, one row per tunnel once the customer saves it (until
 * then the defaults for the tunnel's port apply); `version` is bumped by every edit and unban. The
 * bans the rule decided, with reason and expiry; `lifted_at` once the customer lifts one.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  await db.schema
    .createTable("tunnel_shields")
    .addColumn("tun_id", "integer", (c) => c.primaryKey())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("allow_list", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("deny_list", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("rule_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rule_conns", "integer", (c) => c.notNull())
    .addColumn("rule_window_s", "integer", (c) => c.notNull())
    .addColumn("rule_ban_s", "integer", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("tunnel_shields_uid").on("tunnel_shields").column("uid").execute();
  const bans = db.schema.createTable("shield_bans");
  await (pg
    ? bans.addColumn("id", "serial", (c) => c.primaryKey())
    : bans.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("tun_id", "integer", (c) => c.notNull())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("until", "text", (c) => c.notNull())
    .addColumn("lifted_at", "text")
    .execute();
  // The decision cache's load (a user's bans in force) and the tunnel's list.
  await db.schema.createIndex("shield_bans_uid_until").on("shield_bans").columns(["uid", "until"]).execute();
  await db.schema.createIndex("shield_bans_tun_until").on("shield_bans").columns(["tun_id", "until"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shield_bans").execute();
  await db.schema.dropTable("tunnel_shields").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
