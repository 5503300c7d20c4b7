import { type CompiledQuery, type Expression, type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";
import { largeMemo } from "./large-memo";

/**
 * A query of one row and one number (a count, a sum) that its module builds over its own tables
 * and a page reads with others through readFigures.
 */
export type Figure = Expression<unknown>;

/** readFigures' statement, compiled: kept by a caller whose figures stay the same (a day's). */
export interface FiguresStatement<K extends string> {
  keys: K[];
  query: CompiledQuery<Record<string, unknown>>;
}

/**
 * The figures as one statement: `select (q1) as "f0", (q2) as "f1", …`, each a scalar subquery.
 * An overview of a dozen counts and sums is then one round trip and one plan instead of a dozen,
 * which is what it costs under load on PostgreSQL (docs/performance.md).
 */
export function figuresStatement<K extends string>(db: Kysely<DB>, figures: Record<K, Figure>): FiguresStatement<K> {
  const keys = Object.keys(figures) as K[];
  const columns = keys.map((k, i) => sql`(${figures[k]}) as ${sql.ref(`f${i}`)}`);
  return { keys, query: sql<Record<string, unknown>>`select ${sql.join(columns)}`.compile(db) };
}

/** Per database, statements memoFigures compiled for a version (a handful a day). */
const compiled = new WeakMap<Kysely<DB>, Map<string, FiguresStatement<string>>>();

function compiledOnce(db: Kysely<DB>, key: string, figures: () => Record<string, Figure>): FiguresStatement<string> {
  let kept = compiled.get(db);
  if (!kept) {
    kept = new Map();
    compiled.set(db, kept);
  }
  let statement = kept.get(key);
  if (!statement) {
    // Bounded: older versions' statements go with the next clear.
    if (kept.size >= 64) kept.clear();
    statement = figuresStatement(db, figures());
    kept.set(key, statement);
  }
  return statement;
}

/** The statement's figures; a sum over no rows (null) reads as 0. */
export async function runFigures<K extends string>(
  db: Kysely<DB>,
  statement: FiguresStatement<K>,
): Promise<Record<K, number>> {
  const { keys, query } = statement;
  const row = keys.length ? ((await db.executeQuery(query)).rows[0] ?? {}) : {};
  return Object.fromEntries(keys.map((k, i) => [k, Number(row[`f${i}`] ?? 0)])) as Record<K, number>;
}

/** The figures' values, read in one statement (figuresStatement). */
export function readFigures<K extends string>(db: Kysely<DB>, figures: Record<K, Figure>): Promise<Record<K, number>> {
  return runFigures(db, figuresStatement(db, figures));
}

/**
 * Figures memoized each by its own size (largeMemo: a count of n rows may be n ms old, 10 s at
 * most; small ones are read every time), each built only when read (`memo[k]()`), keyed by
 * `prefix` and its name; and `live` figures read every time. The ones due and the live ones are
 * read together in one statement (on PostgreSQL each statement is a round trip). With a
 * `version` (e.g. the day whose figures `live` are), each set of due figures' statement is
 * compiled once for that version: the same figures give the same statement.
 */
export async function memoFigures<K extends string, L extends string = never>(
  db: Kysely<DB>,
  prefix: string,
  memo: Record<K, () => Figure>,
  live: Record<L, Figure> = {} as Record<L, Figure>,
  version?: string,
): Promise<Record<K | L, number>> {
  const due = new Set<K>();
  let batch: Promise<Record<string, number>> | undefined;
  // largeMemo asks synchronously for every figure it must compute, so by the next microtask all
  // that are due have asked.
  const figures = () => ({
    ...Object.fromEntries(Object.entries<Figure>(live).map(([k, f]) => [`live:${k}`, f])),
    ...Object.fromEntries([...due].map((k) => [`memo:${k}`, memo[k]()])),
  });
  const read = () =>
    (batch ??= Promise.resolve().then(() =>
      version === undefined
        ? readFigures(db, figures())
        : runFigures(db, compiledOnce(db, `${prefix}|${version}|${[...due].join(",")}`, figures)),
    ));
  const keys = Object.keys(memo) as K[];
  const kept = keys.map((k) =>
    largeMemo(
      db,
      `${prefix}:${k}`,
      async () => {
        due.add(k);
        return (await read())[`memo:${k}`];
      },
      (n) => n,
    ),
  );
  const liveKeys = Object.keys(live) as L[];
  const fresh = liveKeys.length ? await read() : {};
  const values = await Promise.all(kept);
  return Object.fromEntries([
    ...keys.map((k, i) => [k, values[i]]),
    ...liveKeys.map((k) => [k, fresh[`live:${k}`]]),
  ]) as Record<K | L, number>;
}
