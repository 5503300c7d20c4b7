import type { Kysely } from "kysely";

/**
 * A moved tunnel's old hold (POST /user/tun/move, docs/tunnels.md): the node it left and the run id
 * of the frpc session that held its proxy there. That session keeps serving the tunnel on the old
 * node until it drops the proxy, so its heartbeats are refused there from any process, after a
 * restart and on the node's agent; cleared when the old node's dashboard no longer shows the
 * proxy online. Null for a tunnel not moved while held. Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").addColumn("moved_node_id", "integer").execute();
  await db.schema.alterTable("tunnels").addColumn("moved_run_id", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").dropColumn("moved_run_id").execute();
  await db.schema.alterTable("tunnels").dropColumn("moved_node_id").execute();
}
