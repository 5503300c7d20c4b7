import type { Kysely } from "kysely";

/**
 * 定时开放 (issue 33 item 7): a tunnel's schedule as JSON (TunnelSchedule: open until an instant,
 * or weekly windows in Asia/Shanghai time); null is always open. A column of tunnels, not a table
 * of its own: the frp decision cache reads it with the tunnel's other fields in the one query.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").addColumn("schedule", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").dropColumn("schedule").execute();
}
