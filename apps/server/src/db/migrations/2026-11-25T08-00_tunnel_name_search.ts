import { type Kysely, sql } from "kysely";
import { isPostgres } from "../dialect";

/**
 * A trigram index on tunnels.tun_name for the operators' tunnel search by name, a "contains"
 * (issue 15, docs/performance.md): on 300k tunnels a LIKE '%text%' read every one, 0.5 s for the
 * list's count on SQLite. The same design as 2026-11-25T06-00_phone_search (its comment says why):
 * - SQLite: an external-content FTS5 table with the trigram tokenizer, rowid = tunnels.tun_id,
 *   kept in step by triggers (only a write of the name or the key re-indexes: the poller updates
 *   every live tunnel's status and totals) and filled by 'rebuild'; trigramContains in dialect.ts
 *   asks it for 3 characters or more.
 * - PostgreSQL: pg_trgm's GIN index, which the list's ILIKE uses by itself; in a savepoint, left
 *   out with a warning where the extension cannot be created (the search then scans).
 * A later migration that rebuilds tunnels the SQLite way (new table, copy, drop, rename) drops
 * these triggers with the old table: it must create them again (name-search.test.ts's FTS5
 * 'integrity-check' would notice).
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`savepoint tunnel_name_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index tunnels_name_trgm on tunnels using gin (tun_name gin_trgm_ops)`.execute(db);
    } catch (err) {
      await sql`rollback to savepoint tunnel_name_trgm`.execute(db);
      process.emitWarning(
        `tunnels_name_trgm not created, the tunnel search by name reads every tunnel: ${(err as Error).message}`,
        "BurrowMigration",
      );
    }
    await sql`release savepoint tunnel_name_trgm`.execute(db);
    return;
  }
  await sql`create virtual table tunnels_name_fts using fts5(tun_name, content='tunnels', content_rowid='tun_id', tokenize='trigram')`.execute(
    db,
  );
  const remove = sql`insert into tunnels_name_fts (tunnels_name_fts, rowid, tun_name) values ('delete', old.tun_id, old.tun_name);`;
  const add = sql`insert into tunnels_name_fts (rowid, tun_name) values (new.tun_id, new.tun_name);`;
  await sql`create trigger tunnels_name_fts_insert after insert on tunnels begin ${add} end`.execute(db);
  await sql`create trigger tunnels_name_fts_delete after delete on tunnels begin ${remove} end`.execute(db);
  await sql`create trigger tunnels_name_fts_update after update of tun_id, tun_name on tunnels begin ${remove} ${add} end`.execute(
    db,
  );
  await sql`insert into tunnels_name_fts (tunnels_name_fts) values ('rebuild')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists tunnels_name_trgm`.execute(db);
    return;
  }
  for (const t of ["insert", "delete", "update"])
    await sql`drop trigger ${sql.id(`tunnels_name_fts_${t}`)}`.execute(db);
  await sql`drop table tunnels_name_fts`.execute(db);
}
