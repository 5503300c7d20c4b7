import type { Kysely } from "kysely";

/**
 * A launch token is bound to the frp token it was issued under (the SHA-256 of users.frp_token):
 * resetting the frp token — the answer to a leak — retires the launch token too, which would
 * otherwise keep handing out the new frp token (review R1 F2). '' (rows from before) counts as
 * retired: the next 一键启动 card issues a new one. Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("launch_tokens")
    .addColumn("frp_token_hash", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("launch_tokens").dropColumn("frp_token_hash").execute();
}
