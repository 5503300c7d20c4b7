import { type Kysely, sql } from "kysely";
import type { DB } from "../src/db/schema";
import type { TestApp } from "./harness";

/**
 * A transaction that takes `lock` (e.g. a node's row as lockNode takes it), runs `then` inside it
 * and holds everything until `release()`; `ready` resolves once it holds them.
 */
export function holding(
  t: TestApp,
  lock: (trx: Kysely<DB>) => Promise<unknown>,
  then?: (trx: Kysely<DB>) => Promise<unknown>,
) {
  let release!: () => void;
  let held!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const ready = new Promise<void>((r) => {
    held = r;
  });
  const done = t.db.transaction().execute(async (trx) => {
    await lock(trx);
    await then?.(trx);
    held();
    await released;
  });
  return { ready, release, done };
}

/**
 * Resolves once `n` statements on the test's PostgreSQL database wait for a lock: the requests
 * under test have come as far as the lock a `holding` transaction keeps, so releasing it now tests
 * what they do after it (a fixed sleep would pass on a slow machine without their getting there).
 */
export async function untilWaiting(t: TestApp, n = 1, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if ((r.rows[0]?.n ?? 0) >= n) return;
    if (Date.now() > end) throw new Error(`fewer than ${n} statements came to wait for a lock`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Sends `request` while `held` keeps its locks, runs `meanwhile` once the request waits for them,
 * then releases them; the request's answer (what it did after the locks).
 */
export async function whileHeld<T>(
  t: TestApp,
  held: ReturnType<typeof holding>,
  request: () => Promise<T>,
  meanwhile?: () => Promise<unknown>,
): Promise<T> {
  await held.ready;
  const answer = request();
  await untilWaiting(t);
  await meanwhile?.();
  held.release();
  await held.done;
  return answer;
}
