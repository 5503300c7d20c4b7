import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * Account deletions (modules/leaving, docs/leaving.md): the customer's request, its cool-off end,
 * and what became of it (cancelled, or erased). `stopped_tunnels` (JSON array of tun_ids) are the
 * tunnels the request disabled, enabled again on a cancel. One pending request per customer.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = await isPg(db);
  const table = db.schema.createTable("account_deletions");
  await (pg
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("uid", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("requested_at", "text", (c) => c.notNull())
    .addColumn("executes_at", "text", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("erased_at", "text")
    .addColumn("forfeit_fen", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stopped_tunnels", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  // At most one pending request per customer, also against two requests at once.
  await sql`create unique index account_deletions_pending on account_deletions (uid) where status = 'pending'`.execute(
    db,
  );
  // The erasure job's scan and the operators' list.
  await db.schema
    .createIndex("account_deletions_due")
    .on("account_deletions")
    .columns(["status", "executes_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("account_deletions").execute();
}

async function isPg(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}
