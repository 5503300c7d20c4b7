import type { Paged } from "@burrow/contract";
import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import { isPostgres, oneOf } from "../db/dialect";
import { largeMemo } from "./large-memo";

/**
 * Reads a page, then its count, and answers the DESIGN.md §3 list shape. A page with fewer rows
 * than its size is the list's last, so its total is its offset plus its rows, and an empty first
 * page is an empty list: neither is counted. Most filtered lists are that short (one customer's
 * tunnels, a search), and their count was a second walk of the same rows (a name search's index,
 * 270 µs of a 960 µs answer).
 * @param rows fetches one page given limit and offset
 * @param count counts every matching row (drivers may answer bigint as string, hence Number)
 */
export async function pageOf<T>(
  page: number,
  size: number,
  rows: (limit: number, offset: number) => Promise<T[]>,
  count: () => Promise<number | string | bigint>,
): Promise<Paged<T>> {
  const offset = (page - 1) * size;
  const list = await rows(size, offset);
  const known = list.length < size && (list.length > 0 || offset === 0);
  return { list, total: known ? offset + list.length : Number(await count()), page, size };
}

/**
 * pageOf over a filtered base query (`selectFrom(…).where(…)`, no select): `rows` adds the
 * select and the order, the page's limit and offset are applied here, each row goes through
 * `present`, and the count is countRows(base) — the filter built once for both, as pageOf wants.
 */
export function pageOfQuery<DB, TB extends keyof DB, O, TR extends keyof DB, R, T>(
  q: { page: number; size: number },
  base: SelectQueryBuilder<DB, TB, O>,
  rows: (base: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TR, R>,
  present: (row: R) => T,
): Promise<Paged<T>> {
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => (await rows(base).limit(limit).offset(offset).execute()).map((r) => present(r as R)),
    () => countRows(base),
  );
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
  if (!db) return Number(((await query.executeTakeFirstOrThrow()) as unknown as { n: number | string }).n);
  const compiled = query.compile();
  return largeMemo(
    db,
    `count:${compiled.sql}:${JSON.stringify(compiled.parameters)}`,
    async (read) => Number(((await read(compiled))[0] as unknown as { n: number | string }).n),
    (n) => n,
  );
}

/** countRows for a query that already selects columns (joins, subqueries): its select list is dropped first. */
export function countSelected<DB, TB extends keyof DB, O>(sel: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  return countRows(sel.clearSelect());
}

/**
 * From this offset on, a page seeks from a remembered id of its list (pageIds): past the rows a
 * few seconds' changes could shift (the anchors are as old as a 10,000-row total may be).
 */
export const DEEP_OFFSET = 10_000;
/** pageIds remembers the list's id at every ANCHOR_EVERY-th row. */
export const ANCHOR_EVERY = 1000;

/**
 * The condition "`id` is one of the page's ids", for the query that reads the page's joined rows:
 * the list's joins then run for the page's rows alone, not for every row OFFSET steps over.
 * @param ids the page's ids, a query selecting that one column
 *
 * On SQLite the ids stay a subquery. PostgreSQL reads them first and takes them as one array
 * parameter: planning the joined rows with the page as a subquery took about 1 ms on every call (a
 * prepared statement's generic plan cannot use its LIMIT parameter, so PostgreSQL plans each call
 * anew: five joins and ten indexes on tunnels), where `= any($1)` gets a generic plan that is
 * planned once (docs/performance.md, fifth round). One more round trip, a fraction of that. The
 * ids and the rows are then two reads, as the page and its count always were: a row changed in
 * between shows as it is now (a tunnel deleted that instant is listed once more, as deleted).
 */
export async function inPage<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  id: string,
  ids: SelectQueryBuilder<DB, TB, O>,
): Promise<RawBuilder<SqlBool>> {
  if (!isPostgres(db)) return sql<SqlBool>`${sql.ref(id)} in (${ids})`;
  const rows = (await ids.execute()) as Record<string, unknown>[];
  return oneOf(
    db,
    id,
    rows.map((r) => Number(Object.values(r)[0])),
  );
}

/**
 * The condition "`id` is on this page" of a list newest first (`id` descending): inPage of its
 * ids. OFFSET steps over every id before a page — 500k of them in the middle of 1M orders, 12–40
 * ms on every call — so from DEEP_OFFSET on the page seeks instead: the list's id at every
 * ANCHOR_EVERY-th row down to the page is read once (listAnchors) and kept like a large total (at
 * most a few seconds old, large-memo.ts), and the page starts below the nearest one, stepping over
 * fewer than ANCHOR_EVERY ids. A deep page of a large list is thus placed as of its total
 * (decisions.md); every page of a short list, and the first DEEP_OFFSET rows of any, are exact.
 * @param sel the list's filtered query (no select, no order)
 * @param id its id column, e.g. "orders.id"
 */
export async function pageIds<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  sel: SelectQueryBuilder<DB, TB, O>,
  id: string,
  limit: number,
  offset: number,
): Promise<RawBuilder<SqlBool>> {
  const col = sql.ref(id);
  const page = (from: SelectQueryBuilder<DB, TB, O>, skip: number) =>
    inPage(db, id, from.select(sql<number>`${col}`.as("id")).orderBy(col, "desc").limit(limit).offset(skip));
  if (offset < DEEP_OFFSET) return page(sel, offset);
  // anchors[n - 1] is the id at 0-based position n × ANCHOR_EVERY − 1.
  const wanted = Math.floor((offset + 1) / ANCHOR_EVERY);
  // At most 2^30 (PostgreSQL's int4): a page past any list's end needs no more to be empty.
  const anchors = await listAnchors(db, sel, col, 2 ** Math.min(30, Math.ceil(Math.log2(wanted))));
  const n = Math.min(wanted, anchors.length);
  if (n === 0) return page(sel, offset);
  return page(sel.where(col, "<=", anchors[n - 1]), offset - (n * ANCHOR_EVERY - 1));
}

/**
 * The first `count` ids at every ANCHOR_EVERY-th row of a list newest first (fewer at its end), in
 * one statement: each a step of ANCHOR_EVERY index entries below the one before (a recursive
 * query), so reading them costs one OFFSET to the last. `count` is rounded up to a power of two
 * by the caller, so a list keeps a handful of these (memoized when large).
 */
function listAnchors<DB, TB extends keyof DB, O>(
  db: Kysely<DB>,
  sel: SelectQueryBuilder<DB, TB, O>,
  col: RawBuilder<unknown>,
  count: number,
): Promise<number[]> {
  // Every step, the first too, seeks below an id: a first step over the whole list ("the
  // 1,000th newest") made SQLite sort every tunnel instead of walking the primary key.
  const next = sel
    .where(col, "<", sql.ref("page_anchors.id"))
    .select(col.as("id"))
    .orderBy(col, "desc")
    .limit(1)
    .offset(ANCHOR_EVERY - 1);
  const query = sql<{ id: number | string }>`with recursive page_anchors(id, n) as (
    select cast(${Number.MAX_SAFE_INTEGER} as bigint), 0
    union all
    select cast((${next}) as bigint), n + 1 from page_anchors where id is not null and n < ${count}
  ) select id from page_anchors where n > 0 and id is not null order by n`;
  const compiled = query.compile(db);
  return largeMemo(
    db,
    `anchors:${compiled.sql}:${JSON.stringify(compiled.parameters)}`,
    async (read) => (await read(compiled)).map((r) => Number(r.id)),
    (ids) => ids.length * ANCHOR_EVERY,
  );
}
