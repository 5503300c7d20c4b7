import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { createDb } from "../db/database";
import { sqliteWorker } from "../db/dialect";
import { FRESH_MS, freshMs, LARGE_ROWS, largeMemo, MAX_STALE_MS, maxStaleMs } from "./large-memo";

/** A figure that counts its computations, with a clock the test moves. */
function setup(first: number) {
  const db = {};
  let value = first;
  let computed = 0;
  let t = 1_000_000;
  const get = () =>
    largeMemo(
      db,
      "k",
      async () => {
        computed++;
        return value;
      },
      (n) => n,
      () => t,
    );
  return {
    get,
    set: (v: number) => (value = v),
    advance: (ms: number) => (t += ms),
    computed: () => computed,
  };
}

describe("largeMemo", () => {
  it("computes a small figure on every call, so it is exact at once", async () => {
    const m = setup(5);
    expect(await m.get()).toBe(5);
    m.set(6);
    expect(await m.get()).toBe(6);
    expect(m.computed()).toBe(2);
  });

  it("answers a large figure from memory while fresh", async () => {
    const m = setup(LARGE_ROWS);
    expect(await m.get()).toBe(LARGE_ROWS);
    m.set(LARGE_ROWS + 1);
    m.advance(freshMs(LARGE_ROWS));
    expect(await m.get()).toBe(LARGE_ROWS);
    expect(m.computed()).toBe(1);
  });

  it("keeps a figure fresh a millisecond a row: 1 s for 1,000 rows, 10 s from 10,000 on", async () => {
    expect([freshMs(1_000), freshMs(4_000), freshMs(10_000), freshMs(1_000_000)]).toEqual([
      1_000,
      4_000,
      FRESH_MS,
      FRESH_MS,
    ]);
    expect([maxStaleMs(1_000), maxStaleMs(10_000), maxStaleMs(1_000_000)]).toEqual([6_000, MAX_STALE_MS, MAX_STALE_MS]);
    const small = setup(LARGE_ROWS);
    await small.get();
    small.set(LARGE_ROWS + 1);
    small.advance(freshMs(LARGE_ROWS) + 1);
    expect(await small.get()).toBe(LARGE_ROWS); // stale: answered once while refreshed
    await new Promise((r) => setTimeout(r, 0));
    expect(await small.get()).toBe(LARGE_ROWS + 1);
    const large = setup(10_000);
    await large.get();
    large.set(10_001);
    large.advance(freshMs(LARGE_ROWS) + 1);
    expect(await large.get()).toBe(10_000);
    expect(large.computed()).toBe(1);
  });

  it("answers a stale large figure once while refreshing it, then the new one", async () => {
    const m = setup(LARGE_ROWS);
    await m.get();
    m.set(LARGE_ROWS + 7);
    m.advance(freshMs(LARGE_ROWS) + 1);
    expect(await m.get()).toBe(LARGE_ROWS);
    await new Promise((r) => setTimeout(r, 0));
    expect(await m.get()).toBe(LARGE_ROWS + 7);
    expect(m.computed()).toBe(2);
  });

  it("waits for a fresh figure once the memory is too old, computing it once for callers together", async () => {
    const m = setup(LARGE_ROWS);
    await m.get();
    m.set(LARGE_ROWS * 2);
    m.advance(maxStaleMs(LARGE_ROWS) + 1);
    expect(await Promise.all([m.get(), m.get(), m.get()])).toEqual([LARGE_ROWS * 2, LARGE_ROWS * 2, LARGE_ROWS * 2]);
    expect(m.computed()).toBe(2);
  });

  it("forgets a figure that became small", async () => {
    const m = setup(LARGE_ROWS);
    await m.get();
    m.set(3);
    m.advance(MAX_STALE_MS + 1);
    expect(await m.get()).toBe(3);
    m.set(4);
    expect(await m.get()).toBe(4);
  });

  it("keeps figures of different databases apart", async () => {
    const a = await largeMemo(
      {},
      "k",
      async () => LARGE_ROWS,
      (n) => n,
    );
    const b = await largeMemo(
      {},
      "k",
      async () => LARGE_ROWS + 1,
      (n) => n,
    );
    expect([a, b]).toEqual([LARGE_ROWS, LARGE_ROWS + 1]);
  });
});

describe("largeMemo on a SQLite file", () => {
  it("refreshes a large figure on the worker thread, never a small one or a first computation", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-large-memo-"));
    const db = createDb({ sqliteFile: path.join(dir, "memo.sqlite") });
    try {
      await sql`create table t (id integer primary key, k integer not null)`.execute(db);
      const worker = sqliteWorker(db);
      if (!worker) throw new Error("a file database has a worker");
      const fill = (n: number, k: number) =>
        sql`insert into t (k) select ${k} from (with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s)`.execute(
          db,
        );
      await fill(LARGE_ROWS, 1);
      await fill(10, 2);
      let t = 1_000_000;
      const count = (k: number) =>
        largeMemo(
          db,
          `count:${k}`,
          async (read) =>
            Number((await read(sql<{ n: number }>`select count(*) as n from t where k = ${k}`.compile(db)))[0].n),
          (n) => n,
          () => t,
        );
      // First computations read on the main connection, whatever their size.
      expect([await count(1), await count(2)]).toEqual([LARGE_ROWS, 10]);
      expect(worker.reads).toBe(0);
      await fill(5, 1);
      await fill(5, 2);
      // The small figure is read again (exact at once), on the main connection.
      expect(await count(2)).toBe(15);
      expect(worker.reads).toBe(0);
      // The large one is fresh; once not, its refresh is read by the worker.
      expect(await count(1)).toBe(LARGE_ROWS);
      t += maxStaleMs(LARGE_ROWS) + 1;
      expect(await count(1)).toBe(LARGE_ROWS + 5);
      expect(worker.reads).toBe(1);
      // Stale but not too old: answered at once while the worker refreshes behind it.
      await fill(5, 1);
      t += freshMs(LARGE_ROWS + 5) + 1;
      expect(await count(1)).toBe(LARGE_ROWS + 5);
      // Once the refresh behind it is stored, the fresh figure is answered.
      await vi.waitFor(async () => expect(await count(1)).toBe(LARGE_ROWS + 10), { timeout: 5000 });
      expect(worker.reads).toBe(2);
      // A worker that failed is not asked again: its refreshes read on the main connection.
      worker.failReader(new Error("gone"));
      expect(worker.running).toBe(false);
      await fill(5, 1);
      t += maxStaleMs(LARGE_ROWS + 10) + 1;
      expect(await count(1)).toBe(LARGE_ROWS + 15);
      expect(worker.reads).toBe(2);
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
