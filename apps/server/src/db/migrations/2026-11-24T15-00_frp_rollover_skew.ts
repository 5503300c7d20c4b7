import type { Kysely } from "kysely";

/**
 * When the poller last saw a node's frps rotate its "today" counters away from Asia/Shanghai
 * midnight (frps runs in another timezone or with a wrong clock): shown on the node page, and
 * the node is billed by counter growth across Burrow's days. Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("node_runtime").addColumn("rollover_skew_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("node_runtime").dropColumn("rollover_skew_at").execute();
}
