import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../src/db/database";
import { knownMigrations, migrateToLatest } from "../src/db/migrate";
import type { DB } from "../src/db/schema";
import { onlyOn, openTestDb, pgAdminUrl, TEST_DIALECT } from "./harness";
import { ensurePgTemplate, schemaHash, sqliteTemplate } from "./template-db";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(migrated: boolean): Promise<Kysely<DB>> {
  const { db, drop, dataDir } = await openTestDb({ migrated });
  cleanups.push(async () => {
    await db.destroy().catch(() => undefined);
    await drop().catch(() => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  });
  return db;
}

/** Every table, column, index, constraint and trigger, as the database describes them. */
async function schemaOf(db: Kysely<DB>): Promise<unknown[]> {
  if (TEST_DIALECT === "sqlite")
    return (
      await sql<{ type: string; name: string; sql: string | null }>`
        select type, name, sql from sqlite_master order by type, name`.execute(db)
    ).rows;
  const q = async (text: string) => (await sql.raw(text).execute(db)).rows;
  return [
    await q(`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
             where table_schema = 'public' order by table_name, column_name`),
    await q("select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname"),
    await q(`select conrelid::regclass::text as t, conname, pg_get_constraintdef(oid) as def from pg_constraint
             where connamespace = 'public'::regnamespace order by t, conname`),
    await q(`select tgrelid::regclass::text as t, tgname from pg_trigger where not tgisinternal order by t, tgname`),
    await q("select extname from pg_extension order by extname"),
  ];
}

const executed = async (db: Kysely<DB>) =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);

describe("migrated test databases (copies of a template)", () => {
  it("a copy has the schema, and the migration rows, of a database migrated from empty; an empty one is empty", async () => {
    const fresh = await open(false);
    expect(await fresh.introspection.getTables()).toEqual([]);
    await migrateToLatest(fresh);
    const copy = await open(true);
    expect(await executed(copy)).toEqual(knownMigrations());
    expect(await schemaOf(copy)).toEqual(await schemaOf(fresh));
    // nothing left for the app's own migration step to do
    expect(await migrateToLatest(copy)).toEqual({ applied: [] });
    expect(await copy.selectFrom("users").select("uid").execute()).toEqual([]);
  });

  it("the hash follows the migration files' names and contents", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-hash-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const src = path.resolve(import.meta.dirname, "../src/db");
    fs.cpSync(path.join(src, "migrations"), path.join(dir, "migrations"), { recursive: true });
    for (const f of ["migrate.ts", "dialect.ts"]) fs.copyFileSync(path.join(src, f), path.join(dir, f));
    const first = schemaHash(dir);
    expect(schemaHash(dir)).toBe(first);
    expect(first).toBe(schemaHash(src));
    const last = path.join(dir, "migrations", `${knownMigrations().at(-1)}.ts`);
    fs.appendFileSync(last, "\n// changed\n");
    const changed = schemaHash(dir);
    expect(changed).not.toBe(first);
    fs.writeFileSync(path.join(dir, "migrations", "2099-01-01T00-00_new.ts"), "export {};\n");
    expect(schemaHash(dir)).not.toBe(changed);
    fs.appendFileSync(path.join(dir, "dialect.ts"), "\n");
    expect(schemaHash(dir)).not.toBe(changed);
  });

  it(
    "SQLite: workers building the template at once all get a whole one; old templates and stopped builds go",
    onlyOn("sqlite", "the SQLite template is a file"),
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-tpl-"));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      const hourAgo = new Date(Date.now() - 2 * 3_600_000);
      for (const name of ["0000000000000000.sqlite", "build-stopped"]) {
        fs.writeFileSync(path.join(dir, name), "old");
        fs.utimesSync(path.join(dir, name), hourAgo, hourAgo);
      }
      fs.writeFileSync(path.join(dir, "1111111111111111.sqlite"), "recent"); // another run's, in use

      const files = await Promise.all([sqliteTemplate(dir), sqliteTemplate(dir), sqliteTemplate(dir)]);
      expect(new Set(files).size).toBe(1);
      expect(fs.readdirSync(dir).sort()).toEqual(["1111111111111111.sqlite", path.basename(files[0])].sort());
      const db = createDb({ sqliteFile: files[0] });
      cleanups.push(() => db.destroy());
      expect(await executed(db)).toEqual(knownMigrations());
      expect(await sqliteTemplate(dir)).toBe(files[0]); // reused, not built again
    },
  );

  describe("PostgreSQL template", () => {
    let adminUrl = "";
    const name = `burrow_tplcheck_${process.pid}_${randomBytes(3).toString("hex")}`;
    const connect = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      cleanups.push(() => c.end());
      return c;
    };
    const setUp = async () => {
      adminUrl = pgAdminUrl();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`alter database ${name} is_template false`).catch(() => undefined);
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
    };

    it(
      "is built once by workers asking at the same time (advisory lock), then copied",
      onlyOn("postgres", "a PostgreSQL template database"),
      async () => {
        await setUp();
        const admins = await Promise.all([connect(), connect(), connect(), connect()]);
        const built = await Promise.all(admins.map((a) => ensurePgTemplate(a, adminUrl, name)));
        expect(built.filter(Boolean)).toHaveLength(1);
        const r = await admins[0].query("select datistemplate from pg_database where datname = $1", [name]);
        expect(r.rows).toEqual([{ datistemplate: true }]);
        // no connection left on it: it can be copied (PostgreSQL refuses a template in use)
        const copy = `${name}_copy`;
        await admins[0].query(`create database ${copy} template ${name}`);
        cleanups.push(async () => void (await admins[0].query(`drop database ${copy}`)));
        const u = new URL(adminUrl);
        u.pathname = `/${copy}`;
        const db = createDb({ databaseUrl: u.toString() });
        cleanups.push(() => db.destroy());
        expect(await executed(db)).toEqual(knownMigrations());
      },
    );

    it(
      "one left half-built by a stopped run (not yet marked a template) is built anew",
      onlyOn("postgres", "a PostgreSQL template database"),
      async () => {
        await setUp();
        const admin = await connect();
        await admin.query(`create database ${name}`);
        const u = new URL(adminUrl);
        u.pathname = `/${name}`;
        const half = new pg.Client({ connectionString: u.toString() });
        await half.connect();
        await half.query("create table leftover (x int)");
        await half.end();

        expect(await ensurePgTemplate(admin, adminUrl, name)).toBe(true);
        const db = createDb({ databaseUrl: u.toString() });
        const tables = (await db.introspection.getTables()).map((t) => t.name);
        await db.destroy();
        expect(tables).not.toContain("leftover");
        expect(tables).toContain("users");
        expect(await ensurePgTemplate(admin, adminUrl, name)).toBe(false);
      },
    );
  });
});
