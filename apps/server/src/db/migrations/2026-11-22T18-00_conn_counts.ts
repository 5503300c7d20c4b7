import type { Kysely } from "kysely";

/**
 * Visitor connections are logged per tunnel and visitor IP per short window (the frp writer's
 * aggregation), with how many connections the row stands for and when the last one came.
 * Frozen: never edit, add a new migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("tunnel_conns")
    .addColumn("conn_count", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("tunnel_conns").addColumn("last_at", "text").execute();
}
