import type { Kysely } from "kysely";

/**
 * Indexes for the API at scale (issue 15, docs/performance.md "API at scale"), where EXPLAIN on the
 * seeded database (1M orders, 300k tunnels, 10M traffic rows) showed full scans or a table lookup
 * per row:
 * - the operator's order list filtered by type and status, newest first (a walk down the index
 *   that stops at the page; the count reads the index alone). Not (status, id) alone: without
 *   statistics SQLite took it for the overview's revenue (status in (1, -2) and a paid_at range)
 *   and read 880k rows instead of a day's;
 * - daily traffic by customer (dashboard, /user/traffic) and by day (overview, /super/flow):
 *   covering, so the sums read the index and never the 10M-row table; they replace the narrower
 *   (uid, day) and (day, node_id) indexes they extend.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_type_status_id").on("orders").columns(["type", "status", "id"]).execute();
  await db.schema
    .createIndex("tunnel_traffic_uid_day_sums")
    .on("tunnel_traffic")
    .columns(["uid", "day", "tun_id", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day").execute();
  await db.schema
    .createIndex("tunnel_traffic_day_sums")
    .on("tunnel_traffic")
    .columns(["day", "node_id", "uid", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_day").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("tunnel_traffic_day").on("tunnel_traffic").columns(["day", "node_id"]).execute();
  await db.schema.dropIndex("tunnel_traffic_day_sums").execute();
  await db.schema.createIndex("tunnel_traffic_uid_day").on("tunnel_traffic").columns(["uid", "day"]).execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day_sums").execute();
  await db.schema.dropIndex("orders_type_status_id").execute();
}
