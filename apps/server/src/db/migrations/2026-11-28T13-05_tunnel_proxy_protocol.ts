import type { Kysely } from "kysely";

/**
 * A tunnel's PROXY protocol option (issue 33 §4, docs/tunnels.md "PROXY protocol"): "off", "v1" or
 * "v2", written into frpc.toml as `transport.proxyProtocolVersion` so the local service learns
 * the visitor's address. Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("tunnels")
    .addColumn("proxy_protocol", "text", (c) => c.notNull().defaultTo("off"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("tunnels").dropColumn("proxy_protocol").execute();
}
