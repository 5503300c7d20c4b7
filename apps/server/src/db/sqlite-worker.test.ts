import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "./database";
import { sqliteWorker } from "./dialect";
import { SqliteWorker } from "./sqlite-worker";

const dirs: string[] = [];
const workers: SqliteWorker[] = [];
afterEach(async () => {
  // The threads close their own connections after the main one: a file they still hold (the WAL)
  // would make removing the folder fail.
  for (const w of workers.splice(0)) await w.stopped();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function track(worker: SqliteWorker): SqliteWorker {
  workers.push(worker);
  return worker;
}

function open(): { db: SQLite.Database; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-sqlite-worker-"));
  dirs.push(dir);
  const file = path.join(dir, "db.sqlite");
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  return { db, file };
}

describe("SqliteWorker", () => {
  it("copies the WAL into the database file from a worker, not on commit", async () => {
    const { db, file } = open();
    track(new SqliteWorker(db, file, 50));
    db.exec("create table t (id integer primary key, v text)");
    const insert = db.prepare("insert into t (v) values (?)");
    // ~8 MB in one go: more than the default 1,000-page threshold, less than the raised one.
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run("x".repeat(4000));
    })();
    expect(fs.statSync(file).size).toBeLessThan(1024 * 1024);
    const deadline = Date.now() + 5000;
    while (fs.statSync(file).size < 7_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.statSync(file).size).toBeGreaterThan(7_000_000);
    db.close();
    expect(db.open).toBe(false);
  });

  it("inserts rows on its own connection, visible to the main one once done", async () => {
    const { db, file } = open();
    db.exec("create table t (id integer primary key, a integer not null, b text)");
    const worker = track(new SqliteWorker(db, file, 1000));
    // More rows than one statement takes, so that two statement sizes are prepared and reused.
    const rows = Array.from({ length: 123 }, (_, i) => [i, `row ${i}`]);
    await worker.insert("insert into t (a, b)", rows);
    await worker.insert("insert into t (a, b)", rows.slice(0, 23));
    expect(db.prepare("select count(*) n, sum(a) s from t").get()).toEqual({ n: 146, s: 7503 + 253 });
    expect(db.prepare("select b from t where a = 122").pluck().all()).toEqual(["row 122"]);
    await expect(worker.insert("insert into missing (a, b)", rows)).rejects.toThrow(/no such table: missing/);
    await expect(worker.insert("insert into t (a, b)", [])).resolves.toBeUndefined();
    db.close();
  });

  it("waits for a transaction of the main connection instead of failing", async () => {
    const { db, file } = open();
    db.exec("create table t (id integer primary key, a integer not null)");
    const worker = track(new SqliteWorker(db, file, 1000));
    db.exec("begin immediate");
    db.prepare("insert into t (a) values (1)").run();
    const done = worker.insert("insert into t (a)", [[2]]);
    await new Promise((r) => setTimeout(r, 100));
    db.exec("commit");
    await done;
    expect(db.prepare("select a from t order by id").pluck().all()).toEqual([1, 2]);
    db.close();
  });

  it("reads on its own connection what the main one has committed, with the same rows", async () => {
    const { db, file } = open();
    db.exec("create table t (id integer primary key, a integer not null, b text, c real)");
    const worker = track(new SqliteWorker(db, file, 1000));
    const insert = db.prepare("insert into t (a, b, c) values (?, ?, ?)");
    for (let i = 0; i < 50; i++) insert.run(i % 7, i % 2 ? null : `b${i}`, i / 4);
    const query = "select a, count(*) as n, max(b) as b, sum(c) as c from t where id > ? group by a order by a";
    const rows = await worker.read(query, [3]);
    expect(rows).toEqual(db.prepare(query).all(3));
    expect(rows).toHaveLength(7);
    // Committed later: seen by the next read (the statement is kept and run again).
    insert.run(100, "late", 0);
    expect(await worker.read("select count(*) as n from t where a = ?", [100])).toEqual([{ n: 1 }]);
    // An open transaction of the main connection is not seen.
    db.exec("begin immediate");
    insert.run(100, "open", 0);
    expect(await worker.read("select count(*) as n from t where a = ?", [100])).toEqual([{ n: 1 }]);
    db.exec("rollback");
    await expect(worker.read("select * from missing", [])).rejects.toThrow(/no such table: missing/);
    expect(worker.reads).toBe(4);
    db.close();
    // Closed with the connection: a read is refused at once, never left unanswered.
    expect(worker.running).toBe(false);
    await expect(worker.read("select 1", [])).rejects.toThrow(/closed/);
  });

  it("reads on a thread of its own: a long read holds up no insert", async () => {
    const { db, file } = open();
    db.exec("create table t (id integer primary key, a integer not null)");
    const worker = track(new SqliteWorker(db, file, 1000));
    await worker.read("select 1 as x", []);
    const order: string[] = [];
    const long = worker
      .read(
        "with recursive s(i) as (select 1 union all select i + 1 from s where i < 3000000) select count(*) as n from s",
        [],
      )
      .then((rows) => order.push(`read ${JSON.stringify(rows)}`));
    await new Promise((r) => setTimeout(r, 20));
    await worker.insert("insert into t (a)", [[1]]).then(() => order.push("insert"));
    await long;
    expect(order).toEqual(["insert", 'read [{"n":3000000}]']);
    db.close();
  });

  it("keeps the app's read-then-write transactions working while the worker writes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-sqlite-worker-"));
    dirs.push(dir);
    const db = createDb({ sqliteFile: path.join(dir, "app.sqlite") });
    await sql`create table t (id integer primary key, a integer not null)`.execute(db);
    const worker = sqliteWorker(db);
    expect(worker).toBeDefined();
    if (worker) track(worker);
    let logged: Promise<void> | undefined;
    await db.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      // A deferred transaction would now fail its write (SQLITE_BUSY_SNAPSHOT) once the worker
      // had committed; an immediate one holds the lock and the worker waits for it.
      logged = worker?.insert("insert into t (a)", [[2]]);
      await new Promise((r) => setTimeout(r, 100));
      await sql`insert into t (a) values (1)`.execute(trx);
    });
    await logged;
    const rows = await sql<{ a: number }>`select a from t order by id`.execute(db);
    expect(rows.rows.map((r) => r.a)).toEqual([1, 2]);
    await db.destroy();
  });
});

describe("SqliteWorker statistics", () => {
  it("analyzes a database that never was, and the main connection's plans follow", async () => {
    const { db, file } = open();
    db.exec(
      "create table t (id integer primary key, kind int, at int); create index t_kind on t (kind); create index t_at on t (at)",
    );
    const insert = db.prepare("insert into t (kind, at) values (?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run(i % 2, i);
    })();
    const plan = () =>
      db
        .prepare("explain query plan select * from t where kind = 1 and at between 10 and 20")
        .all()
        .map((r) => (r as { detail: string }).detail)
        .join();
    // No statistics: SQLite guesses the equality is the better index.
    expect(plan()).toContain("t_kind");
    track(new SqliteWorker(db, file, 1000, 50));
    const deadline = Date.now() + 5000;
    const analyzed = () => (db.prepare("select count(*) n from sqlite_stat1").get() as { n: number }).n;
    while (Date.now() < deadline && !db.prepare("select 1 from sqlite_master where name = 'sqlite_stat1'").get())
      await new Promise((r) => setTimeout(r, 20));
    while (Date.now() < deadline && analyzed() < 2) await new Promise((r) => setTimeout(r, 20));
    expect(analyzed()).toBeGreaterThanOrEqual(2);
    // kind has two values over 20,000 rows, at is unique: the range on at is the better index now.
    expect(plan()).toContain("t_at");
    db.close();
  });
});
