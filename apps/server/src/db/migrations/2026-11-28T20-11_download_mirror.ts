import type { Kysely } from "kysely";

/**
 * frpc/frps builds the console hosts itself (issue 33 §1, docs/downloads.md): a client_downloads row
 * made by `npm run admin -- frp-mirror` names its file under DATA_DIR/mirror/frp/<version>/
 * (`mirror_file`) and its size in bytes; both null on a row an operator typed in by hand.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("client_downloads").addColumn("mirror_file", "text").execute();
  await db.schema.alterTable("client_downloads").addColumn("size", "bigint").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("client_downloads").dropColumn("size").execute();
  await db.schema.alterTable("client_downloads").dropColumn("mirror_file").execute();
}
