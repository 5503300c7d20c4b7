import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Tunnels and the frp control plane: tunnels and the domains they hold, per-day traffic, visitor
 * connections, the poller's per-proxy counters and per-node runtime, illegal-tunnel rules and
 * flags, frpc downloads. Frozen: never edit, add a new migration instead.
 * Traffic is bytes (bigint), days are Asia/Shanghai YYYY-MM-DD text, times ISO-8601 UTC text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const id = (name: string) => (t: any) =>
    pg
      ? t.addColumn(name, "serial", (c: any) => c.primaryKey())
      : t.addColumn(name, "integer", (c: any) => c.primaryKey().autoIncrement());

  await id("tun_id")(db.schema.createTable("tunnels"))
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("tun_name", "text", (c: any) => c.notNull())
    .addColumn("protocol", "text", (c: any) => c.notNull())
    .addColumn("local_ip", "text", (c: any) => c.notNull())
    .addColumn("local_port", "integer", (c: any) => c.notNull())
    .addColumn("remote_port", "integer")
    .addColumn("custom_domains", "text", (c: any) => c.notNull().defaultTo("[]"))
    .addColumn("subdomain", "text")
    .addColumn("use_encryption", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("use_compression", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("bandwidth", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("enabled", "integer", (c: any) => c.notNull().defaultTo(1))
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("banned_reason", "text")
    .addColumn("addon", "text", (c: any) => c.notNull().defaultTo("{}"))
    .addColumn("traffic_in", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("traffic_out", "bigint", (c: any) => c.notNull().defaultTo(0))
    .addColumn("run_id", "text")
    .addColumn("last_online_at", "text")
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("updated_at", "text", (c: any) => c.notNull())
    .execute();
  // Deleted tunnels (status −1) keep their row for traffic history but free their name and port.
  await db.schema
    .createIndex("tunnels_uid_name")
    .on("tunnels")
    .columns(["uid", "tun_name"])
    .unique()
    .where(sql<boolean>`status <> -1`)
    .execute();
  await db.schema
    .createIndex("tunnels_node_port")
    .on("tunnels")
    .columns(["node_id", "remote_port"])
    .unique()
    .where(sql<boolean>`status <> -1 and remote_port is not null`)
    .execute();
  await db.schema.createIndex("tunnels_node").on("tunnels").columns(["node_id", "status"]).execute();
  await db.schema.createIndex("tunnels_uid").on("tunnels").columns(["uid", "status"]).execute();

  // One row per full domain name (custom domain or subdomain.subDomainHost) a live tunnel holds.
  await db.schema
    .createTable("tunnel_domains")
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("tun_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("tunnel_domains_pk", ["node_id", "domain"])
    .execute();
  await db.schema.createIndex("tunnel_domains_tun").on("tunnel_domains").column("tun_id").execute();

  await db.schema
    .createTable("tunnel_traffic")
    .addColumn("tun_id", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("traffic_in", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("traffic_out", "bigint", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("tunnel_traffic_pk", ["tun_id", "day"])
    .execute();
  await db.schema.createIndex("tunnel_traffic_uid_day").on("tunnel_traffic").columns(["uid", "day"]).execute();
  await db.schema.createIndex("tunnel_traffic_day").on("tunnel_traffic").columns(["day", "node_id"]).execute();

  await id("id")(db.schema.createTable("tunnel_conns"))
    .addColumn("tun_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("proxy_type", "text", (c: any) => c.notNull())
    .addColumn("remote_addr", "text", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema.createIndex("tunnel_conns_tun").on("tunnel_conns").columns(["tun_id", "id"]).execute();
  await db.schema.createIndex("tunnel_conns_uid").on("tunnel_conns").columns(["uid", "id"]).execute();
  await db.schema.createIndex("tunnel_conns_created").on("tunnel_conns").column("created_at").execute();

  // The poller's memory of each proxy's "today" counters on a node (frp-protocol.md §6.3).
  await db.schema
    .createTable("proxy_counters")
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("proxy_name", "text", (c) => c.notNull())
    .addColumn("tun_id", "integer")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("last_in", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_out", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("cur_conns", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("online", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("start_time", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("proxy_counters_pk", ["node_id", "proxy_name"])
    .execute();
  await db.schema.createIndex("proxy_counters_tun").on("proxy_counters").column("tun_id").execute();

  await db.schema
    .createTable("node_runtime")
    .addColumn("node_id", "integer", (c) => c.primaryKey())
    .addColumn("version", "text")
    .addColumn("cur_conns", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("client_counts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("proxy_counts", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("traffic_in", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("traffic_out", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("last_poll_at", "text")
    .addColumn("last_error", "text")
    .addColumn("counters_version", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await id("id")(db.schema.createTable("illegal_rules"))
    .addColumn("kind", "text", (c: any) => c.notNull())
    .addColumn("value", "text", (c: any) => c.notNull())
    .addColumn("note", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("illegal_rules_kind_value")
    .on("illegal_rules")
    .columns(["kind", "value"])
    .unique()
    .execute();

  await id("id")(db.schema.createTable("tunnel_flags"))
    .addColumn("tun_id", "integer", (c: any) => c.notNull())
    .addColumn("uid", "integer", (c: any) => c.notNull())
    .addColumn("node_id", "integer", (c: any) => c.notNull())
    .addColumn("source", "text", (c: any) => c.notNull())
    .addColumn("rule_id", "integer")
    .addColumn("reason", "text", (c: any) => c.notNull())
    .addColumn("reporter", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("status", "integer", (c: any) => c.notNull())
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .addColumn("handled_at", "text")
    .addColumn("handled_by", "integer")
    .execute();
  await db.schema.createIndex("tunnel_flags_status").on("tunnel_flags").columns(["status", "id"]).execute();
  // A rule flags a tunnel once; clearing it is remembered until the tunnel is edited.
  await db.schema
    .createIndex("tunnel_flags_rule")
    .on("tunnel_flags")
    .columns(["tun_id", "rule_id"])
    .unique()
    .where(sql<boolean>`rule_id is not null`)
    .execute();

  await id("id")(db.schema.createTable("client_downloads"))
    .addColumn("os", "text", (c: any) => c.notNull())
    .addColumn("arch", "text", (c: any) => c.notNull())
    .addColumn("version", "text", (c: any) => c.notNull())
    .addColumn("url", "text", (c: any) => c.notNull())
    .addColumn("checksum", "text", (c: any) => c.notNull())
    .addColumn("note", "text", (c: any) => c.notNull().defaultTo(""))
    .addColumn("sort", "integer", (c: any) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c: any) => c.notNull())
    .execute();
  await db.schema
    .createIndex("client_downloads_build")
    .on("client_downloads")
    .columns(["os", "arch", "version"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "client_downloads",
    "tunnel_flags",
    "illegal_rules",
    "node_runtime",
    "proxy_counters",
    "tunnel_conns",
    "tunnel_traffic",
    "tunnel_domains",
    "tunnels",
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
