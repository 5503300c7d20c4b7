import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * One open appeal per tunnel, held by the database too (issue 30 §7: on PostgreSQL 10 appeals sent
 * at once for one locked tunnel opened 10). A partial unique index, portable to SQLite and
 * PostgreSQL. Appeals the race already doubled are ended first: the oldest open one of each
 * tunnel stays, the later ones (the same request, sent again) are ended so the index can be built.
 * The rule itself is kept by createTicket under the customer's lock; the index is a second guard.
 * On PostgreSQL only the table's owner may index it, and a managed database's application role
 * may not own it: both steps sit in a savepoint (the migrator runs all pending migrations in one
 * transaction) and, refused, leave the table as it was and say so once at start-up.
 * Frozen: never edit, add a new migration instead.
 */
async function uniqueOpenAppeal(db: Kysely<any>): Promise<void> {
  await sql`update tickets set status = 1, closed_at = ${new Date().toISOString()}
    where category = 'appeal' and status <> 1 and tun_id is not null and exists (
      select 1 from tickets earlier where earlier.tun_id = tickets.tun_id and earlier.category = 'appeal'
        and earlier.status <> 1 and earlier.id < tickets.id)`.execute(db);
  await db.schema
    .createIndex("tickets_open_appeal")
    .on("tickets")
    .column("tun_id")
    .unique()
    .where(sql<boolean>`category = 'appeal' and status <> 1`)
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return uniqueOpenAppeal(db);
  await sql`savepoint open_appeal_unique`.execute(db);
  try {
    await uniqueOpenAppeal(db);
    await sql`release savepoint open_appeal_unique`.execute(db);
  } catch (err) {
    await sql`rollback to savepoint open_appeal_unique`.execute(db);
    await sql`release savepoint open_appeal_unique`.execute(db);
    process.emitWarning(
      `tickets_open_appeal not created, one open appeal per tunnel is kept by the customer's lock alone: ${(err as Error).message}`,
      "BurrowMigration",
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("tickets_open_appeal").ifExists().execute();
}
