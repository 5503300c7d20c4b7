import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteStatement,
} from "kysely";
import pg from "pg";
import { DIR_MODE, privateFile, privateIfThere, sidecars } from "./data-dir";
import { setDialect } from "./dialect";
import type { DB } from "./schema";
import { SqliteWorker } from "./sqlite-worker";

// pg returns int8/bigint as strings; our bigints are fen and bytes, far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// float4/float8 and numeric as numbers (fee discounts).
pg.types.setTypeParser(700, (v) => Number(v));
pg.types.setTypeParser(701, (v) => Number(v));

export interface DbOptions {
  /** postgres:// URL; unset means SQLite */
  databaseUrl?: string;
  /** SQLite file path, or ":memory:" */
  sqliteFile?: string;
  /** PostgreSQL: run data statements as named prepared statements (PreparingClient); default on */
  prepare?: boolean;
}

/** Opens the database: PostgreSQL when a URL is given, else SQLite (WAL, foreign keys off, busy timeout). */
export function createDb(opts: DbOptions): Kysely<DB> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      Client: opts.prepare === false ? pg.Client : PreparingClient,
    });
    // An idle connection closed by the server (PostgreSQL restart, admin command) is dropped by
    // the pool and replaced on next use; without a listener its error would crash the process.
    pool.on("error", () => undefined);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    setDialect(db, "postgres");
    return db;
  }
  const file = opts.sqliteFile ?? ":memory:";
  if (file !== ":memory:") {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: DIR_MODE });
    // Owner-only before SQLite opens it: SQLite gives the -wal and -shm it creates the file's mode.
    privateFile(file);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  if (file !== ":memory:") for (const f of sidecars(file)) privateIfThere(f);
  // NORMAL is durable in WAL mode except for the last transactions on power loss, and much faster.
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  const worker = file === ":memory:" ? undefined : new SqliteWorker(sqlite, file);
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: keepingStatements(sqlite) }) });
  setDialect(db, "sqlite", worker);
  return db;
}

/** Data statements only: DDL and transaction control stay unnamed (and are rarely repeated). */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * A PostgreSQL connection that runs a repeated data statement as a named prepared statement (named
 * by a hash of its SQL), so that the server can keep its plan. Kysely sends every query unnamed,
 * and PostgreSQL then plans it on every execution: for the tunnel list's joins planning took 1–3
 * ms against 0.2–0.4 ms of execution (docs/performance.md, "Third round").
 * From the sixth execution PostgreSQL uses a generic plan unless its estimated cost is well above
 * the custom plans' (plan_cache_mode auto); otherwise it still plans each time, as before.
 *
 * Bounds, since each kept statement holds server memory (a 400-row upsert's ≈ 1 MB):
 * - a statement is named only from its second sighting in this process (`seen`, the last
 *   `maxSeen` texts): one-off texts — the poller's writes carry values as literals, IN lists vary
 *   in length — never take a slot;
 * - texts over `maxLength` characters stay unnamed (the large batch writes);
 * - at most `maxNamed` statements a connection; later ones run unnamed.
 * A kept statement that went stale — a schema change by another process's migration ("cached plan
 * must not change result type") or a pooler that dropped it (26000) — fails once and its
 * connection is closed, so the pool opens a fresh one.
 */
export class PreparingClient extends pg.Client {
  static maxNamed = 300;
  static maxLength = 4000;
  static maxSeen = 5000;
  static readonly seen = new Map<string, true>();
  readonly #named = new Set<string>();

  // biome-ignore lint/suspicious/noExplicitAny: pg.Client's query has a dozen overloads; only (text, values) is changed
  override query(config: any, values?: any, callback?: any): any {
    if (
      typeof config !== "string" ||
      typeof values === "function" ||
      callback ||
      config.length > PreparingClient.maxLength ||
      !DATA_STATEMENT.test(config)
    )
      return super.query(config, values, callback);
    const name = `b${createHash("sha1").update(config).digest("base64url").slice(0, 20)}`;
    if (!this.#named.has(name)) {
      if (!PreparingClient.sighted(name) || this.#named.size >= PreparingClient.maxNamed)
        return super.query(config, values);
      this.#named.add(name);
    }
    return (super.query({ name, text: config, values }) as unknown as Promise<pg.QueryResult>).catch((err) => {
      if (isStaleStatement(err)) void this.end().catch(() => undefined);
      throw err;
    });
  }

  /** Whether `name` was seen before (and notes it, most recent last). */
  static sighted(name: string): boolean {
    const before = PreparingClient.seen.delete(name);
    PreparingClient.seen.set(name, true);
    if (PreparingClient.seen.size > PreparingClient.maxSeen)
      PreparingClient.seen.delete(PreparingClient.seen.keys().next().value as string);
    return before;
  }
}

/** A kept statement the server can no longer run: re-planned into another result type, or gone. */
const isStaleStatement = (err: { code?: string; routine?: string }) =>
  (err.code === "0A000" && err.routine === "RevalidateCachedQuery") || err.code === "26000";

/**
 * The connection as Kysely sees it, with prepared statements kept by their SQL (least recently used
 * dropped past `max`). Kysely prepares every query anew, and compiling the SQL costs more than
 * running most of ours; a statement is only ever used by one query at a time, since Kysely holds
 * SQLite's single connection for the whole of a query (a stream included).
 */
export function keepingStatements(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const schemaVersion = sqlite.prepare("pragma schema_version").pluck();
  const version = () => schemaVersion.get() as number;
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = statements.get(sql);
      if (stmt) {
        statements.delete(sql);
      } else {
        stmt = rowStatement(sqlite.prepare(sql), version);
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, stmt);
      return stmt;
    },
  };
}

/**
 * A statement whose rows are read as arrays and made into objects by a function built for its
 * columns. better-sqlite3 builds each row object key by key, which costs about twice as much for
 * our wide rows (20 orders of 36 columns: 115 → 62 µs) and gives V8 slower objects to present and
 * serialise. The objects are the same: same keys in the same order, a repeated name keeping its
 * last value, "__proto__" assigned (setting the prototype) as better-sqlite3 does.
 * @param version the database's schema version (a pragma, under 1 µs)
 */
function rowStatement(stmt: SQLite.Statement, version: () => number): SqliteStatement {
  if (!stmt.reader) return stmt;
  let seen = Number.NaN;
  let width = -1;
  let row: (r: unknown[]) => object = () => ({});
  /** Objects of rows read at schema version `v`, which was read before them. */
  const objects = (rows: unknown[][], v: number) => {
    // SQLite prepares a statement again after any schema change (a migration, or another
    // connection's): its columns are then read anew (columns() alone costs 20 µs a call).
    if (rows.length && (v !== seen || rows[0].length !== width)) {
      const names = stmt.columns().map((c) => c.name);
      seen = v;
      width = names.length;
      row = names.includes("__proto__")
        ? // assigned like better-sqlite3's (a literal refuses two "__proto__" keys)
          (r) => {
            const o: Record<string, unknown> = {};
            for (let i = 0; i < names.length; i++) o[names[i]] = r[i];
            return o;
          }
        : // keys JSON-escaped: a literal's key may hold any text
          (new Function("r", `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(", ")}};`) as (
            r: unknown[],
          ) => object);
    }
    return rows.map(row);
  };
  stmt.raw(true);
  return {
    reader: true,
    all(parameters) {
      const v = version();
      return objects(stmt.all(parameters) as unknown[][], v);
    },
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      const v = version();
      for (const r of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield objects([r], v)[0];
    },
  };
}

/**
 * Transactions that take SQLite's write lock when they begin. The background worker
 * (sqlite-worker.ts) writes to the same file: a deferred transaction that read before one of its
 * commits could not write after it (SQLITE_BUSY_SNAPSHOT, no retry), where BEGIN IMMEDIATE waits
 * for the lock (busy_timeout) and then reads the latest data.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }

  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * SQLite's schema changes are transactional (CREATE/ALTER/DROP roll back like any write); Kysely's
 * adapter says otherwise only because it cannot know every driver. Saying so makes the migrator
 * run all pending migrations of a start in one transaction, as on PostgreSQL (db/migrate.ts).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
