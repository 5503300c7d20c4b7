import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * 连接诊断 and 强制下线 (issue 33 §8, §2).
 * - tunnel_events (owned by tunnels): every decision the console made about a tunnel, one row per
 *   (tunnel, kind, reason, minute) with a count, written in batches by the frp write-behind writer
 *   (upserted on that key); tun_id 0 rows are about the owner's sessions on a node (Login, a
 *   refused heartbeat), shown on each of the owner's tunnels there. Pruned after 7 days.
 * - frp_evictions (owned by frp): frpc sessions (run ids) a customer freed: their heartbeats,
 *   logins and proxies are refused until `until`, so the stuck session lets go and cannot take
 *   the proxy back before the customer's new frpc.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const table = db.schema.createTable("tunnel_events");
  await (pg
    ? table.addColumn("id", "serial", (c: any) => c.primaryKey())
    : table.addColumn("id", "integer", (c: any) => c.primaryKey().autoIncrement())
  )
    .addColumn("tun_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("kind", "text", (c: any) => c.notNull())
    .addColumn("reason", "text", (c: any) => c.notNull())
    // the minute (ISO, seconds cut) identical events collapse into
    .addColumn("minute", "text", (c: any) => c.notNull())
    .addColumn("count", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("first_at", "text", (c: any) => c.notNull())
    .addColumn("last_at", "text", (c: any) => c.notNull())
    .addUniqueConstraint("tunnel_events_key", ["tun_id", "uid", "node_id", "kind", "reason", "minute"])
    .execute();
  // A tunnel's page (its own rows), its owner's session rows on the node, and the pruning by age.
  await db.schema.createIndex("tunnel_events_tun").on("tunnel_events").columns(["tun_id", "minute"]).execute();
  await db.schema
    .createIndex("tunnel_events_session")
    .on("tunnel_events")
    .columns(["uid", "node_id", "tun_id", "minute"])
    .execute();
  await db.schema.createIndex("tunnel_events_minute").on("tunnel_events").column("minute").execute();

  await db.schema
    .createTable("frp_evictions")
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("run_id", "text", (c: any) => c.notNull())
    .addColumn("tun_id", "integer", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("until", "text", (c: any) => c.notNull())
    .addPrimaryKeyConstraint("frp_evictions_pk", ["uid", "run_id"])
    .execute();
  await db.schema.createIndex("frp_evictions_until").on("frp_evictions").column("until").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("frp_evictions").execute();
  await db.schema.dropTable("tunnel_events").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
