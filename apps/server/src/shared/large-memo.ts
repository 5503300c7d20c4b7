import type { CompiledQuery, Kysely } from "kysely";
import { sqliteWorker } from "../db/dialect";

/**
 * Figures over many rows — a long list's total, an overview's aggregate — served from memory for a
 * little while once they are large (issue 15, docs/performance.md "API at scale"). Counting 1M
 * orders or summing 100k traffic rows on every call is what kept those calls far above 20 ms
 * under 20 clients, and counting a few thousand (the refunded orders, the locked tunnels, the
 * tickets waiting) is what kept the next ones just above it. A figure of LARGE_ROWS rows or more is
 * read at most once per freshMs(rows) per query - a millisecond a row: 1 s for 1,000 rows, 10 s
 * from 10,000 on, so how old a figure may be grows with how little one row changes it - and a
 * figure older than that is answered while one refresh runs (never older than maxStaleMs(rows):
 * past that the caller waits for a fresh one). Small figures — every figure of a small install,
 * of most customers, of a narrow filter — are computed on every call as before, so they are exact
 * at once.
 *
 * On SQLite every query runs on the event loop, so a refresh of a large figure — a count of 1M
 * orders, 300k tunnels grouped by node: 30–350 ms — would stall every request in flight, frps's
 * plugin calls too, every few seconds. A compute that reads through the `read` it is given has
 * its refreshes run on the reader thread of SQLite's worker (db/sqlite-worker.ts) instead; the first computation
 * of a figure, whose size is not known yet, and every small figure read on the main connection.
 */

/** From this many rows on, a figure may be answered from memory. */
export const LARGE_ROWS = 1_000;
/** The longest a figure is answered from memory without a refresh (from 10,000 rows on). */
export const FRESH_MS = 10_000;
export const MAX_STALE_MS = 60_000;
/** How long a figure of `rows` rows is fresh: a millisecond a row, FRESH_MS at most. */
export const freshMs = (rows: number): number => Math.min(FRESH_MS, rows);
/** How old a figure of `rows` rows may be answered while it is refreshed: six times freshMs. */
export const maxStaleMs = (rows: number): number => Math.min(MAX_STALE_MS, 6 * rows);
/** Kept per database; the oldest is dropped past this (one per filter combination asked). */
const MAX_KEYS = 1000;

interface Entry {
  value: unknown;
  at: number;
  rows: number;
  refreshing?: Promise<unknown>;
}

const memos = new WeakMap<object, Map<string, Entry>>();

/** Runs a compiled read query and gives its rows. */
export type Read = <R>(query: CompiledQuery<R>) => Promise<R[]>;

/** `db`'s own connection. */
export const onConnection =
  (db: object): Read =>
  async <R>(query: CompiledQuery<R>) =>
    (await (db as Kysely<unknown>).executeQuery(query)).rows;

/** SQLite's worker thread where `db` has one running (a file database), else `db`'s own connection. */
const offLoop = (db: object): Read => {
  const worker = sqliteWorker(db);
  if (!worker?.running) return onConnection(db);
  return <R>(query: CompiledQuery<R>) =>
    worker.read<R>(query.sql, query.parameters).catch((err) => {
      // The thread failed under the read: the main connection answers it.
      if (worker.running) throw err;
      return onConnection(db)(query);
    });
};

/**
 * `compute()`'s value for `key` on database `db`, from memory while it is large and fresh (see
 * above). `rows(value)` tells how many rows the value stands for (a count is its own size). The
 * queries `compute` runs through `read` refresh a large figure off the event loop on SQLite.
 */
export async function largeMemo<T>(
  db: object,
  key: string,
  compute: (read: Read) => Promise<T>,
  rows: (value: T) => number,
  now: () => number = Date.now,
): Promise<T> {
  let memo = memos.get(db);
  if (!memo) {
    memo = new Map();
    memos.set(db, memo);
  }
  const store = async (read: Read): Promise<T> => {
    const value = await compute(read);
    const n = rows(value);
    memo.delete(key);
    if (n >= LARGE_ROWS) {
      memo.set(key, { value, at: now(), rows: n });
      if (memo.size > MAX_KEYS) memo.delete(memo.keys().next().value as string);
    }
    return value;
  };
  const hit = memo.get(key);
  if (!hit) return store(onConnection(db));
  const age = now() - hit.at;
  if (age <= freshMs(hit.rows)) return hit.value as T;
  // Only large figures are kept: a refresh reads off the event loop.
  if (age > maxStaleMs(hit.rows)) {
    // Callers arriving together wait for one computation.
    hit.refreshing ??= store(offLoop(db)).finally(() => (hit.refreshing = undefined));
    return hit.refreshing as Promise<T>;
  }
  // Answer the figure we have; one refresh runs behind it (its failure leaves the old figure).
  hit.refreshing ??= store(offLoop(db))
    .catch(() => undefined)
    .finally(() => (hit.refreshing = undefined));
  return hit.value as T;
}

/** Forgets every memo of `db` (tests). */
export function clearLargeMemo(db: object): void {
  memos.delete(db);
}
