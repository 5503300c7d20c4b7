import type { Kysely } from "kysely";

/**
 * A customer's daily traffic index also carries the node (issue 15, docs/performance.md "Sixth
 * round"): /super/flow for one customer sums their days by node, and without `node_id` in the
 * index it read each of the rows from the table (707 rows for a heavy customer's week; PostgreSQL
 * 0.75 → 0.46 ms, SQLite 537 → 410 µs). It replaces the index it extends, so writes keep the same
 * number of indexes. Building it over 10M rows took 8 s on PostgreSQL and 7 s on SQLite.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("tunnel_traffic_uid_day_node")
    .on("tunnel_traffic")
    .columns(["uid", "day", "tun_id", "node_id", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day_sums").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("tunnel_traffic_uid_day_sums")
    .on("tunnel_traffic")
    .columns(["uid", "day", "tun_id", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day_node").execute();
}
