import type { Kysely } from "kysely";

/**
 * Port-range tunnels (issue 33 item 5): a tcp/udp tunnel holds remote_port..remote_port_end on its
 * node; null is a single port (every tunnel before this). Overlaps are refused by the tunnel
 * write under the node's lock (tunnels.service.ts), the unique index on remote_port still guards
 * each range's first port. Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").addColumn("remote_port_end", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").dropColumn("remote_port_end").execute();
}
