import type { Paged } from "@burrow/contract";
import { type SelectQueryBuilder, sql } from "kysely";
import { largeMemo } from "./large-memo";

/**
 * Runs a page query and its count together and answers the DESIGN.md §3 list shape.
 * @param rows fetches one page given limit and offset
 * @param count counts every matching row (drivers may answer bigint as string, hence Number)
 */
export async function pageOf<T>(
  page: number,
  size: number,
  rows: (limit: number, offset: number) => Promise<T[]>,
  count: () => Promise<number | string | bigint>,
): Promise<Paged<T>> {
  const [list, total] = await Promise.all([rows(size, (page - 1) * size), count()]);
  return { list, total: Number(total), page, size };
}

/**
 * How many rows a filtered base query (`selectFrom(…).where(…)`) matches: pageOf's count. Given the
 * database `db`, a large total (a big table's list) may be a few seconds old: see large-memo.ts.
 */
export async function countRows<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  db?: object,
): Promise<number> {
  const query = base.select(sql<number>`count(*)`.as("n"));
  const run = async () => Number(((await query.executeTakeFirstOrThrow()) as unknown as { n: number | string }).n);
  if (!db) return run();
  const { sql: text, parameters } = query.compile();
  return largeMemo(db, `count:${text}:${JSON.stringify(parameters)}`, run, (n) => n);
}

/** countRows for a query that already selects columns (joins, subqueries): its select list is dropped first. */
export function countSelected<DB, TB extends keyof DB, O>(sel: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  return countRows(sel.clearSelect());
}
