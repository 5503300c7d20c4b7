import { type CompiledQuery, type Expression, type Kysely, sql } from "kysely";
import type { DB } from "../db/schema";

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
