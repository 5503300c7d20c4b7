import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, Migrator, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { BACKUPS_KEPT, backupSqlite, knownMigrations, migrateToLatest, SchemaTooNewError } from "../src/db/migrate";
import { migrations } from "../src/db/migrations/index";
import type { DB } from "../src/db/schema";
import { openTestDb, TEST_DIALECT } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: the tables are discovered at run time, whatever the schema.
type AnyDb = Kysely<any>;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function open(): Promise<{ db: Kysely<DB>; dataDir: string }> {
  const { db, drop, dataDir } = await openTestDb();
  cleanups.push(async () => {
    await db.destroy().catch(() => undefined);
    // SQLite's log worker closes its own connection a moment later (it may still remove -wal/-shm).
    await drop().catch(() => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  });
  return { db, dataDir };
}

/** Runs the migrations up to and including `name`, as an older Burrow would have. */
async function migrateTo(db: Kysely<DB>, name: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error;
}

async function userTables(db: AnyDb): Promise<Awaited<ReturnType<AnyDb["introspection"]["getTables"]>>> {
  return (await db.introspection.getTables()).filter((t) => !t.name.startsWith("kysely_"));
}

/** A value of the column's type, different per table and column (so unique columns stay unique). */
function sample(table: string, column: string, dataType: string, n: number): unknown {
  const t = dataType.toLowerCase();
  if (/bool/.test(t)) return TEST_DIALECT === "postgres" ? true : 1;
  if (/int|serial/.test(t)) return n;
  if (/real|float|double|numeric|decimal/.test(t)) return n + 0.5;
  if (/json/.test(t)) return JSON.stringify({ n });
  return `${table}.${column}#${n}`;
}

/** Puts `rows` rows in every table, every column filled except generated keys; returns the counts. */
async function fillEveryTable(db: AnyDb, rows: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await userTables(db)) {
    for (let n = 1; n <= rows; n++) {
      const values: Record<string, unknown> = {};
      for (const c of table.columns) {
        if (!c.isAutoIncrementing) values[c.name] = sample(table.name, c.name, c.dataType, n);
      }
      await db.insertInto(table.name).values(values).execute();
    }
    counts[table.name] = await countRows(db, table.name);
  }
  return counts;
}

async function countRows(db: AnyDb, table: string): Promise<number> {
  const r = await db.selectFrom(table).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe("migrations at start", () => {
  const known = knownMigrations();

  // From the first schema (every later migration runs over data) and from the one before the
  // latest (a routine upgrade).
  for (const from of [...new Set([known[0], known.at(-2) as string])]) {
    it(`a database at ${from} with rows in every table keeps every row when migrated to the latest`, async () => {
      const { db } = await open();
      await migrateTo(db, from);
      const before = await fillEveryTable(db, 2);
      expect(Object.keys(before).length).toBeGreaterThan(0);

      const result = await migrateToLatest(db);
      expect(result.applied).toEqual(known.slice(known.indexOf(from) + 1));
      expect(result.from).toBe(from);
      for (const [table, n] of Object.entries(before)) expect(await countRows(db, table), table).toBe(n);
      // A second start has nothing to do and writes no backup.
      expect(await migrateToLatest(db)).toEqual({ applied: [] });

      if (TEST_DIALECT === "sqlite") {
        // The copy taken before the first pending migration: opens, has the old schema and every row.
        expect(result.backup).toBeDefined();
        const copy = new SQLite(result.backup as string, { readonly: true, fileMustExist: true });
        try {
          const names = copy.prepare("select name from kysely_migration order by name").pluck().all();
          expect(names).toEqual(known.slice(0, known.indexOf(from) + 1));
          for (const [table, n] of Object.entries(before)) {
            expect(copy.prepare(`select count(*) from "${table}"`).pluck().get(), table).toBe(n);
          }
        } finally {
          copy.close();
        }
      } else {
        expect(result.backup).toBeUndefined(); // PostgreSQL: pg_dump, docs/upgrade.md
      }
    });
  }

  it("a fresh database is migrated without a backup (there is nothing to keep)", async () => {
    const { db, dataDir } = await open();
    const result = await migrateToLatest(db);
    expect(result.applied).toEqual(known);
    expect(result.from).toBeUndefined();
    expect(result.backup).toBeUndefined();
    expect(fs.readdirSync(dataDir).filter((n) => n.includes(".backup-"))).toEqual([]);
  });

  it("refuses a database migrated by a newer Burrow, naming both versions, and changes nothing", async () => {
    const { db, dataDir } = await open();
    await migrateTo(db, known.at(-2) as string);
    const future = "2999-01-01T00-00_from_a_newer_burrow";
    await sql`insert into kysely_migration (name, timestamp) values (${future}, ${new Date().toISOString()})`.execute(
      db,
    );
    const err = await migrateToLatest(db).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    const message = (err as Error).message;
    expect(message).toContain(future); // the database's version
    expect(message).toContain(known.at(-1) as string); // the latest this code knows
    expect(message).toMatch(/newer Burrow/);
    // The pending known migration was not run, and no backup was taken.
    const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(ran.rows.map((r) => r.name)).not.toContain(known.at(-1));
    expect(fs.readdirSync(dataDir).filter((n) => n.includes(".backup-"))).toEqual([]);
  });

  it("a failing migration leaves the schema as it was (one transaction)", async () => {
    const { db } = await open();
    await migrateTo(db, known.at(-2) as string);
    const last = known.at(-1) as string;
    // Make the last migration fail midway: a table it does not create, which it would not expect.
    const broken = {
      ...migrations,
      "2999-12-31T00-00_broken": {
        up: async (trx: AnyDb) => {
          await trx.schema.createTable("migration_probe").addColumn("id", "integer").execute();
          throw new Error("boom");
        },
      },
    };
    const migrator = new Migrator({ db, provider: { getMigrations: async () => broken } });
    const { error } = await migrator.migrateToLatest();
    expect(String(error)).toContain("boom");
    // Neither the migration before it in the same run nor its own table survived.
    const names = (await userTables(db)).map((t) => t.name);
    expect(names).not.toContain("migration_probe");
    const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(ran.rows.map((r) => r.name)).not.toContain(last);
  });
});

describe("SQLite backups", () => {
  it(`keeps the last ${BACKUPS_KEPT}, each a database that opens`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-backup-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "burrow.sqlite");
    const live = new SQLite(file);
    live.pragma("journal_mode = WAL");
    live.exec("create table t (v integer)");
    const taken: string[] = [];
    for (let i = 1; i <= BACKUPS_KEPT + 2; i++) {
      // Written while the database is open, with rows still in the WAL.
      live.prepare("insert into t (v) values (?)").run(i);
      taken.push(await backupSqlite(file, `m${i}`));
      await new Promise((r) => setTimeout(r, 5)); // distinct timestamps in the names
    }
    live.close();
    const left = fs
      .readdirSync(dir)
      .filter((n) => n.includes(".backup-"))
      .map((n) => path.join(dir, n))
      .sort();
    expect(left).toEqual(taken.slice(-BACKUPS_KEPT));
    for (const [i, backup] of left.entries()) {
      const copy = new SQLite(backup, { readonly: true, fileMustExist: true });
      expect(copy.prepare("select count(*) from t").pluck().get()).toBe(i + 3);
      copy.close();
    }
  });
});
