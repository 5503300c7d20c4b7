import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Generated, Kysely, PostgresDialect, type RawBuilder, type SqlBool, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPgDatabase, onlyOn } from "../../test/harness";
import { inPage } from "../shared/paging";
import { createDb, keepingStatements, PreparingClient } from "./database";
import { oneOf } from "./dialect";

describe("keepingStatements", () => {
  it("prepares a statement once per SQL and drops the least recently used past the limit", () => {
    const sqlite = new SQLite(":memory:");
    const prepare = sqlite.prepare.bind(sqlite);
    let prepared = 0;
    sqlite.prepare = ((source: string) => {
      prepared++;
      return prepare(source);
    }) as typeof sqlite.prepare;
    const db = keepingStatements(sqlite, 2);
    prepared = 0; // its own schema-version pragma
    const a = db.prepare("select 1");
    expect(db.prepare("select 1")).toBe(a);
    db.prepare("select 2");
    db.prepare("select 1"); // now the most recently used
    db.prepare("select 3"); // drops "select 2"
    expect(prepared).toBe(3);
    expect(db.prepare("select 1")).toBe(a);
    db.prepare("select 2");
    expect(prepared).toBe(4);
    db.close();
    expect(sqlite.open).toBe(false);
  });

  it("runs Kysely's reads, writes and transactions with each call's own parameters", async () => {
    const db = new Kysely<{ t: { id: Generated<number>; v: string } }>({
      dialect: new SqliteDialect({ database: keepingStatements(new SQLite(":memory:")) }),
    });
    await sql`create table t (id integer primary key, v text)`.execute(db);
    for (const v of ["a", "b", "c"]) await db.insertInto("t").values({ v }).execute();
    const byId = (id: number) => db.selectFrom("t").select("v").where("id", "=", id).executeTakeFirst();
    expect([await byId(1), await byId(3), await byId(9)]).toEqual([{ v: "a" }, { v: "c" }, undefined]);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable("t").set({ v: "z" }).where("id", "=", 2).execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const updated = await db.updateTable("t").set({ v: "y" }).where("id", "=", 2).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    expect(await db.selectFrom("t").select("v").orderBy("id").execute()).toEqual([{ v: "a" }, { v: "y" }, { v: "c" }]);
    await db.destroy();
  });
});

describe("keepingStatements' rows", () => {
  const tricky = `select 1 as a, 'x' as "b", null as "__proto__", 2 as a, 'q"uo\\te' as "k""e'y\\", x'00ff' as blob, 3.5 as "constructor", 'z' as "序号", '\u2028' as "\u2028\${x}"`;

  it("are the objects better-sqlite3 makes: keys, order, repeated names, escapes, __proto__, blobs", () => {
    const sqlite = new SQLite(":memory:");
    const kept = keepingStatements(sqlite);
    const ours = kept.prepare(tricky).all([]) as Record<string, unknown>[];
    const theirs = sqlite.prepare(tricky).all() as Record<string, unknown>[];
    expect(ours).toEqual(theirs);
    expect(Object.keys(ours[0])).toEqual(Object.keys(theirs[0]));
    // better-sqlite3 assigns each key: "__proto__" (null here) sets the prototype
    expect(Object.getPrototypeOf(ours[0])).toBe(Object.getPrototypeOf(theirs[0]));
    expect(Object.getPrototypeOf(ours[0])).toBe(null);
    expect(ours[0].a).toBe(2);
    expect(ours[0]["k\"e'y\\"]).toBe('q"uo\\te');
    expect([...kept.prepare(tricky).iterate([])]).toEqual(theirs);
    // two "__proto__" columns: a literal would not even compile
    const twice = `select 1 as "__proto__", 2 as b, null as "__proto__"`;
    const ours2 = kept.prepare(twice).all([]) as object[];
    expect(ours2).toEqual(sqlite.prepare(twice).all());
    expect(Object.getPrototypeOf(ours2[0])).toBe(null);
    sqlite.close();
  });

  it("follow a schema change, made through them or by another connection", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-rows-"));
    const file = path.join(dir, "t.sqlite");
    const sqlite = new SQLite(file);
    const kept = keepingStatements(sqlite);
    const all = (s: string, p: unknown[] = []) => kept.prepare(s).all(p) as Record<string, unknown>[];
    kept.prepare("create table t (id integer primary key, v text)").run([]);
    expect(all("insert into t (v) values (?) returning *", ["a"])).toEqual([{ id: 1, v: "a" }]);
    expect(kept.prepare("update t set v = ? where id = ?").run(["b", 1]).changes).toBe(1);
    expect(all("select * from t")).toEqual([{ id: 1, v: "b" }]);
    kept.prepare("alter table t add column w integer default 7").run([]);
    expect(all("select * from t")).toEqual([{ id: 1, v: "b", w: 7 }]);
    kept.prepare("alter table t rename column v to name").run([]);
    expect(all("select * from t")).toEqual([{ id: 1, name: "b", w: 7 }]);
    const other = new SQLite(file);
    other.exec("alter table t add column extra text default 'e'");
    expect(all("select * from t")).toEqual([{ id: 1, name: "b", w: 7, extra: "e" }]);
    // the same number of columns under other names
    other.exec("alter table t drop column w; alter table t add column note text default 'n'");
    expect(all("select * from t")).toEqual([{ id: 1, name: "b", extra: "e", note: "n" }]);
    other.exec("alter table t rename column name to title");
    expect(all("select * from t")).toEqual([{ id: 1, title: "b", extra: "e", note: "n" }]);
    expect([...kept.prepare("select * from t").iterate([])]).toEqual([{ id: 1, title: "b", extra: "e", note: "n" }]);
    other.close();
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

const PG_CLIENT = onlyOn("postgres", "PreparingClient is the node-postgres client; SQLite has none");
describe("PreparingClient (PostgreSQL)", PG_CLIENT, () => {
  /** A database with one connection, so that every query meets the same prepared statements. */
  async function oneConnection() {
    const pgDb = await createPgDatabase("burrow_prep");
    const pool = new pg.Pool({ connectionString: pgDb.url, max: 1, Client: PreparingClient });
    const db = new Kysely<{ t: { id: Generated<number>; v: string } }>({ dialect: new PostgresDialect({ pool }) });
    await sql`create table t (id serial primary key, v text)`.execute(db);
    const prepared = async () =>
      (
        await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
          select statement, generic_plans, custom_plans from pg_prepared_statements
          where statement not like '%pg_prepared_statements%'`.execute(db)
      ).rows;
    return {
      db,
      prepared,
      close: async () => {
        await db.destroy();
        await pgDb.drop();
      },
    };
  }

  it("prepares a repeated data statement once and keeps its plan across executions with other values", async () => {
    PreparingClient.seen.clear();
    const { db, prepared, close } = await oneConnection();
    try {
      for (const v of ["a", "b", "c"]) await db.insertInto("t").values({ v }).execute();
      const byId = (id: number) => db.selectFrom("t").select("v").where("id", "=", id).executeTakeFirst();
      const got = [];
      for (const id of [1, 2, 3, 9, 1, 2, 3]) got.push((await byId(id))?.v);
      expect(got).toEqual(["a", "b", "c", undefined, "a", "b", "c"]);
      const text = db.selectFrom("t").select("v").where("id", "=", 1).compile().sql;
      const mine = (await prepared()).filter((p) => p.statement === text);
      expect(mine).toHaveLength(1);
      // The first execution ran unnamed (a first sighting); the six after it ran the kept statement.
      expect(Number(mine[0].generic_plans) + Number(mine[0].custom_plans)).toBe(6);
      // DDL stays unnamed.
      expect((await prepared()).some((p) => /create table/i.test(p.statement))).toBe(false);
    } finally {
      await close();
    }
  });

  it("plans a page's joined rows once when inPage passes the ids as an array, not under a LIMIT parameter", async () => {
    const { db: plain, prepared, close } = await oneConnection();
    const db = plain as unknown as Kysely<{ t: { id: Generated<number>; v: string }; u: { id: number; t_id: number } }>;
    try {
      await sql`insert into t (v) select 'v' || n from generate_series(1, 5000) n`.execute(db);
      await sql`create table u (id serial primary key, t_id int not null)`.execute(db);
      await sql`insert into u (t_id) select n from generate_series(1, 5000) n`.execute(db);
      await sql`create index u_t on u (t_id)`.execute(db);
      await sql`analyze`.execute(db);
      const ids = (offset: number) =>
        db.selectFrom("t").select("t.id").orderBy("t.id", "desc").limit(20).offset(offset);
      const rows = (where: RawBuilder<SqlBool>) =>
        db.selectFrom("t").innerJoin("u", "u.t_id", "t.id").select(["t.id", "t.v", "u.id as u_id"]).where(where);
      const pages = [];
      for (let i = 0; i < 8; i++) {
        pages.push(
          (
            await rows(await inPage(db, "t.id", ids(i * 20)))
              .orderBy("t.id", "desc")
              .execute()
          ).map((r) => r.id),
        );
        // the same page as one statement, the page a subquery (what SQLite keeps)
        await rows(sql<SqlBool>`t.id in (${ids(i * 20)})`).execute();
      }
      expect(pages[0]).toEqual(Array.from({ length: 20 }, (_, i) => 5000 - i));
      expect(pages[7][19]).toBe(5000 - 159);
      const plans = await prepared();
      const byArray = plans.find((p) => /= any\(\$1\)/.test(p.statement));
      const bySubquery = plans.find((p) => /in \(\(select/.test(p.statement) && /join/.test(p.statement));
      // PostgreSQL settles on the generic plan after five custom ones: the rest are not planned.
      expect(Number(byArray?.generic_plans)).toBeGreaterThan(0);
      // Under a LIMIT parameter the generic plan reckons with a tenth of the table: planned every time.
      expect(Number(bySubquery?.generic_plans)).toBe(0);
      expect(Number(bySubquery?.custom_plans)).toBe(7);
    } finally {
      await close();
    }
  });

  it("takes a list of ids as one array parameter (oneOf): one kept statement whatever the list's length", async () => {
    PreparingClient.seen.clear();
    const { db, prepared, close } = await oneConnection();
    try {
      await sql`insert into t (v) select 'v' || n from generate_series(1, 100) n`.execute(db);
      const vs = async (ids: number[]) =>
        (
          await db
            .selectFrom("t")
            .select("v")
            .where(oneOf(db, "id", ids))
            .orderBy("id")
            .execute()
        ).map((r) => r.v);
      for (let round = 0; round < 2; round++)
        for (const ids of [[3], [1, 2, 3, 4, 5], Array.from({ length: 50 }, (_, i) => i + 51), [999]])
          expect(await vs(ids)).toEqual(ids.filter((id) => id <= 100).map((id) => `v${id}`));
      const mine = (await prepared()).filter((p) => /from "t" where "id" = any\(\$1\)/.test(p.statement));
      expect(mine).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it("runs every statement unnamed with prepare: false (PG_PREPARED_STATEMENTS=false)", async () => {
    const pgDb = await createPgDatabase("burrow_prep");
    const db = createDb({ databaseUrl: pgDb.url, prepare: false });
    try {
      const names = await db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) await sql`select 1`.execute(trx);
        return (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(trx)).rows;
      });
      expect(names).toEqual([]);
    } finally {
      await db.destroy();
      await pgDb.drop();
    }
  });

  it("names at most maxNamed statements a connection and runs the rest unnamed", async () => {
    const was = PreparingClient.maxNamed;
    PreparingClient.maxNamed = 2;
    const { db, prepared, close } = await oneConnection();
    try {
      await db.insertInto("t").values({ v: "x" }).execute();
      for (let i = 0; i < 5; i++)
        for (const _ of [1, 2])
          expect(
            (await sql<{ n: number }>`select ${sql.lit(i)} + count(*)::int as n from t`.execute(db)).rows[0].n,
          ).toBe(i + 1);
      expect(await prepared()).toHaveLength(2);
    } finally {
      PreparingClient.maxNamed = was;
      await close();
    }
  });

  it("leaves one-off statements and long ones unnamed", async () => {
    const { db, prepared, close } = await oneConnection();
    try {
      // Values written into the SQL (as the poller's batch writes do): every text is new.
      for (let i = 0; i < 20; i++) await sql`insert into t (v) values (${sql.lit(`once-${i}`)})`.execute(db);
      const long = sql`select count(*) from t where v <> ${sql.lit("x".repeat(PreparingClient.maxLength))}`;
      for (const _ of [1, 2, 3]) await long.execute(db);
      expect(await prepared()).toEqual([]);
    } finally {
      await close();
    }
  });

  it("closes a connection whose statement a schema change broke, and the next query works", async () => {
    const { db, close } = await oneConnection();
    try {
      await db.insertInto("t").values({ v: "x" }).execute();
      const all = () => sql<{ v: string }>`select * from t`.execute(db);
      await all();
      await all(); // kept from its second run
      await sql`alter table t add column w int`.execute(db);
      // "cached plan must not change result type": the old connection is dropped...
      await expect(all()).rejects.toMatchObject({ code: "0A000" });
      // ...and the pool's new one prepares the statement afresh.
      expect((await all()).rows).toEqual([{ id: 1, v: "x", w: null }]);
    } finally {
      await close();
    }
  });
});
