import { type Kysely, sql } from "kysely";

/**
 * One open appeal per tunnel, held by the database too (issue 30 §7: on PostgreSQL 10 appeals sent
 * at once for one locked tunnel opened 2). A partial unique index, portable to SQLite and
 * PostgreSQL. Appeals the race already doubled are ended first: the oldest open one of each
 * tunnel stays, the later ones (the same request, sent again) are ended so the index can be built.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("tickets_open_appeal").execute();
}
