import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * The poller's pending tails: yesterday's last bytes of a proxy, noted by the first poll of a day
 * and collected from frps's 7-day history by later polls. Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("proxy_counters").addColumn("tail_day", "text").execute();
  await db.schema.alterTable("proxy_counters").addColumn("tail_until", "text").execute();
  await db.schema
    .alterTable("proxy_counters")
    .addColumn("tail_in", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("proxy_counters")
    .addColumn("tail_out", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("proxy_counters")
    .addColumn("tail_fresh", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("proxy_counters_tail")
    .on("proxy_counters")
    .columns(["node_id", "tail_day"])
    .where(sql<boolean>`tail_day is not null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("proxy_counters_tail").execute();
  for (const c of ["tail_fresh", "tail_out", "tail_in", "tail_until", "tail_day"]) {
    await db.schema.alterTable("proxy_counters").dropColumn(c).execute();
  }
}
