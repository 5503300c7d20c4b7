import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * A customer's daily traffic index also carries the node (issue 15, docs/performance.md "Sixth
 * round"): /super/flow for one customer sums their days by node, and without `node_id` in the
 * index it read each of the rows from the table (707 rows for a heavy customer's week; PostgreSQL
 * 0.75 → 0.46 ms, SQLite 537 → 410 µs). It replaces the index it extends, so writes keep the same
 * number of indexes. Building it over 10M rows took 8 s on PostgreSQL and 7 s on SQLite (the
 * poller's traffic writes wait for it).
 * On PostgreSQL only the table's owner may index it, and a managed database's application role
 * may not own it: the migrator runs every pending migration in one transaction, so the swap sits
 * in a savepoint and, refused, leaves the old index (the flow reads the rows from the table, as
 * before) and says so once at start-up.
 * Frozen: never edit, add a new migration instead.
 */
async function swap(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("tunnel_traffic_uid_day_node")
    .on("tunnel_traffic")
    .columns(["uid", "day", "tun_id", "node_id", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day_sums").execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return swap(db);
  await sql`savepoint traffic_uid_node`.execute(db);
  try {
    await swap(db);
    await sql`release savepoint traffic_uid_node`.execute(db);
  } catch (err) {
    await sql`rollback to savepoint traffic_uid_node`.execute(db);
    await sql`release savepoint traffic_uid_node`.execute(db);
    process.emitWarning(
      `tunnel_traffic_uid_day_node not created, a customer's flow reads their rows from the table: ${(err as Error).message}`,
      "BurrowMigration",
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("tunnel_traffic_uid_day_sums")
    .ifNotExists()
    .on("tunnel_traffic")
    .columns(["uid", "day", "tun_id", "traffic_in", "traffic_out"])
    .execute();
  await db.schema.dropIndex("tunnel_traffic_uid_day_node").ifExists().execute();
}
