import { type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from "kysely";
import type { SqliteWorker } from "./sqlite-worker";

/** Which SQL dialect a Kysely instance talks to; set once in createDb. */
const dialects = new WeakMap<object, "sqlite" | "postgres">();
/** The background worker of a SQLite database on a file. */
const sqliteWorkers = new WeakMap<object, SqliteWorker>();

export function setDialect(db: object, dialect: "sqlite" | "postgres", worker?: SqliteWorker): void {
  dialects.set(db, dialect);
  if (worker) sqliteWorkers.set(db, worker);
}

/**
 * Asks Kysely's adapter, so that a transaction (a different object from the Kysely it came from)
 * answers like its database; the WeakMap is only the fallback for bare objects.
 */
export function isPostgres(db: Kysely<unknown> | object): boolean {
  const executor = (db as Partial<Kysely<unknown>>).getExecutor?.();
  if (executor) return executor.adapter instanceof PostgresAdapter;
  return dialects.get(db) === "postgres";
}

/**
 * `column` is one of `ids`. PostgreSQL takes them as one array parameter (`= any($1)`): an IN list
 * of n parameters is a statement of its own for every n, planned on every call, where the array's
 * is planned once (a customer's 300 tunnels were 300 parameters). SQLite keeps the IN list.
 */
export function oneOf(db: object, column: string, ids: readonly number[]): RawBuilder<SqlBool> {
  if (isPostgres(db)) return sql<SqlBool>`${sql.ref(column)} = any(${[...ids]})`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids.map((id) => sql`${id}`))})`;
}

/** The worker that writes bulk logs off the event loop, for a SQLite database on a file. */
export function sqliteWorker(db: object): SqliteWorker | undefined {
  return sqliteWorkers.get(db);
}

/** `value` for a LIKE pattern with "\\" as its escape: its "%" and "_" taken literally. */
const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Case-insensitive "contains" for both dialects (SQLite LIKE is already case-insensitive for ASCII). */
export function likeContains(value: string): string {
  return `%${likeLiteral(value)}%`;
}

/** Escape clause for LIKE patterns built by likeContains. */
export const likeEscape = sql.raw("'\\'");

/**
 * `column` contains `value`, case-insensitively on both dialects (ILIKE on PostgreSQL, where LIKE
 * is case-sensitive), with "%" and "_" in the value taken literally.
 */
export function containsText(db: object, column: string, value: string): RawBuilder<SqlBool> {
  const op = isPostgres(db) ? sql.raw("ilike") : sql.raw("like");
  return sql<SqlBool>`${sql.ref(column)} ${op} ${likeContains(value)} escape ${likeEscape}`;
}

/** `column` ends with `suffix`, case-insensitively on both dialects (as containsText). */
export function endsWithText(db: object, column: string, suffix: string): RawBuilder<SqlBool> {
  const op = isPostgres(db) ? sql.raw("ilike") : sql.raw("like");
  return sql<SqlBool>`${sql.ref(column)} ${op} ${`%${likeLiteral(suffix)}`} escape ${likeEscape}`;
}

/** A run of 3 characters without a LIKE wildcard: what a trigram index needs (with fewer, FTS5 reads every row). */
const TRIGRAM = /[^%_]{3}/u;

/**
 * containsText on a column with a trigram index (migrations *_search): PostgreSQL's ILIKE uses its
 * pg_trgm GIN index by itself; on SQLite, with 3 characters or more, the candidates come from the
 * FTS5 trigram table `fts.table` (its rowid is the row's `fts.key`) instead of a read of every row.
 * Its LIKE takes no ESCAPE clause (with one, SQLite does not hand it to the index), so a "%" or
 * "_" in the text is a wildcard there: a superset, which the escaped LIKE then narrows to the
 * literal text.
 */
export function trigramContains(
  db: object,
  column: string,
  text: string,
  fts: { table: string; column: string; key: string },
): RawBuilder<SqlBool> {
  const literal = containsText(db, column, text);
  if (isPostgres(db) || !TRIGRAM.test(text)) return literal;
  const candidates = sql`select rowid from ${sql.table(fts.table)} where ${sql.ref(fts.column)} like ${`%${text}%`}`;
  return sql<SqlBool>`(${sql.ref(fts.key)} in (${candidates}) and ${literal})`;
}
