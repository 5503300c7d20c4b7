import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * Indexes for the operator's lists at scale (issue 15, docs/performance.md "API at scale"), where
 * EXPLAIN on the seeded database (1M orders, 300k tunnels, 93k proxy counters) showed a sort or a
 * table lookup per row:
 * - orders by status, newest first (refunded orders: 9k rows fetched and sorted for a page);
 * - the tunnel list's count filtered by status, or by node, status and protocol, from the index
 *   alone (the node of each row was read from the table: 6k lookups per call);
 * - a customer's tunnels, newest first: PostgreSQL walked the whole primary key backwards for a
 *   customer with hundreds of tunnels (low ids), filtering 300k rows for a page of 10;
 * - the live proxies of /super/tun/conns, busiest first (a scan and sort of every counter);
 *   partial: only proxies with connections are in it, and the query says `cur_conns > 0` as a
 *   literal so that both databases may use it.
 * On SQLite each new index is analyzed at once: a database analyzed before (sqlite_stat1) would
 * otherwise weigh it, unmeasured, above the measured ones — orders (status, id) then took the
 * overview's revenue of a day (880k rows read) and tunnels (status, node_id) the locked tunnels'
 * page (a sort of 6k joined rows). PostgreSQL plans from the table's statistics.
 * Frozen: never edit, add a new migration instead.
 */
const INDEXES = [
  "orders_status_id",
  "tunnels_status_node",
  "tunnels_node_status_protocol",
  "tunnels_uid_id",
  "proxy_counters_live",
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_status_id").on("orders").columns(["status", "id"]).execute();
  await db.schema.createIndex("tunnels_status_node").on("tunnels").columns(["status", "node_id"]).execute();
  await db.schema
    .createIndex("tunnels_node_status_protocol")
    .on("tunnels")
    .columns(["node_id", "status", "protocol"])
    .execute();
  await db.schema.createIndex("tunnels_uid_id").on("tunnels").columns(["uid", "tun_id"]).execute();
  await db.schema
    .createIndex("proxy_counters_live")
    .on("proxy_counters")
    .column("cur_conns")
    .where(sql<boolean>`cur_conns > 0`)
    .execute();
  if (!isPostgres(db)) for (const i of INDEXES) await sql`analyze ${sql.id(i)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const i of [...INDEXES].reverse()) await db.schema.dropIndex(i).execute();
}
