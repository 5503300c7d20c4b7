/**
 * Figures over many rows — a long list's total, an overview's aggregate — served from memory for a
 * few seconds once they are large (issue 15, docs/performance.md "API at scale"). Counting 1M
 * orders or summing 100k traffic rows on every call is what kept those calls far above 20 ms
 * under 20 clients; a figure over LARGE_ROWS rows or more is read at most every FRESH_MS per
 * query, and a figure older than that is answered while one refresh runs (never older than
 * MAX_STALE_MS: past that the caller waits for a fresh one). Small figures — every figure of a
 * small install, of a customer, of a narrow filter — are computed on every call as before, so
 * they are exact at once.
 */

/** From this many rows on, a figure may be up to FRESH_MS old. */
export const LARGE_ROWS = 10_000;
export const FRESH_MS = 10_000;
export const MAX_STALE_MS = 60_000;
/** Kept per database; the oldest is dropped past this (one per filter combination asked). */
const MAX_KEYS = 1000;

interface Entry {
  value: unknown;
  at: number;
  refreshing?: Promise<unknown>;
}

const memos = new WeakMap<object, Map<string, Entry>>();

/**
 * `compute()`'s value for `key` on database `db`, from memory while it is large and fresh (see
 * above). `rows(value)` tells how many rows the value stands for (a count is its own size).
 */
export async function largeMemo<T>(
  db: object,
  key: string,
  compute: () => Promise<T>,
  rows: (value: T) => number,
  now: () => number = Date.now,
): Promise<T> {
  let memo = memos.get(db);
  if (!memo) {
    memo = new Map();
    memos.set(db, memo);
  }
  const store = async (): Promise<T> => {
    const value = await compute();
    memo.delete(key);
    if (rows(value) >= LARGE_ROWS) {
      memo.set(key, { value, at: now() });
      if (memo.size > MAX_KEYS) memo.delete(memo.keys().next().value as string);
    }
    return value;
  };
  const hit = memo.get(key);
  if (!hit) return store();
  const age = now() - hit.at;
  if (age <= FRESH_MS) return hit.value as T;
  if (age > MAX_STALE_MS) {
    // Callers arriving together wait for one computation.
    hit.refreshing ??= store().finally(() => (hit.refreshing = undefined));
    return hit.refreshing as Promise<T>;
  }
  // Answer the figure we have; one refresh runs behind it (its failure leaves the old figure).
  hit.refreshing ??= store()
    .catch(() => undefined)
    .finally(() => (hit.refreshing = undefined));
  return hit.value as T;
}

/** Forgets every memo of `db` (tests). */
export function clearLargeMemo(db: object): void {
  memos.delete(db);
}
