import type { Kysely } from "kysely";

/**
 * frps sends CloseProxy from a goroutine (frp-protocol.md Appendix C): after frpc reconnects under
 * the same run id, or reloads a proxy, the old proxy's CloseProxy can reach Burrow after the new
 * proxy's NewProxy. `stale_closes` counts, for the session that holds the tunnel (`run_id`), the
 * CloseProxy calls of its earlier proxies still to come: a NewProxy of the holder adds one, and
 * the holder's CloseProxy takes one off while there are any, and releases the hold only at 0
 * (-1 marks a hold the poller took from the dashboard). Existing holds have none pending.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("tunnels")
    .addColumn("stale_closes", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").dropColumn("stale_closes").execute();
}
