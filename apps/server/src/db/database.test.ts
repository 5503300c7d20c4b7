import SQLite from "better-sqlite3";
import { type Generated, Kysely, SqliteDialect, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { keepingStatements } from "./database";

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
