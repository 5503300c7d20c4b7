import type { Kysely } from "kysely";

/**
 * Bytes of connections frps has not counted yet (it counts a connection when it closes): per proxy,
 * since when the poller has seen connections open without a pause and the bytes credited since;
 * per customer and node, a kick standing while those bytes could exceed the quota left.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("proxy_counters").addColumn("conns_since", "text").execute();
  await db.schema
    .alterTable("proxy_counters")
    .addColumn("conns_credit", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("frp_kicks")
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("node_id", "integer", (c) => c.notNull())
    .addColumn("inflight", "bigint", (c) => c.notNull())
    .addColumn("remaining", "bigint", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("until", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("frp_kicks_pk", ["uid", "node_id"])
    .execute();
  await db.schema.createIndex("frp_kicks_node").on("frp_kicks").column("node_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("frp_kicks").execute();
  await db.schema.alterTable("proxy_counters").dropColumn("conns_credit").execute();
  await db.schema.alterTable("proxy_counters").dropColumn("conns_since").execute();
}
