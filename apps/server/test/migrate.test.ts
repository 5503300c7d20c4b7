import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, Migrator, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDb } from "../src/db/database";
import { BACKUPS_KEPT, backupSqlite, knownMigrations, migrateToLatest, SchemaTooNewError } from "../src/db/migrate";
import * as phoneSearch from "../src/db/migrations/2026-11-25T06-00_phone_search";
import { migrations } from "../src/db/migrations/index";
import type { DB } from "../src/db/schema";
import { uidsWithPhoneContaining } from "../src/modules/users/users.repository";
import { tunnelRow } from "./frp-fixtures";
import { catchWarnings, createPgDatabase, onlyOn, openTestDb, TEST_DIALECT } from "./harness";

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

/**
 * The tables that hold rows of their own: not Kysely's, and not SQLite's virtual tables (the FTS5
 * phone index) with their shadow tables, which triggers fill from another table and which may not
 * be written directly.
 */
async function userTables(db: AnyDb): Promise<Awaited<ReturnType<AnyDb["introspection"]["getTables"]>>> {
  const virtual =
    TEST_DIALECT === "sqlite"
      ? (await sql<{ name: string }>`select name from sqlite_master where sql like 'create virtual table%'`.execute(db))
          .rows
      : [];
  const derived = (name: string) => virtual.some((v) => name === v.name || name.startsWith(`${v.name}_`));
  return (await db.introspection.getTables()).filter((t) => !t.name.startsWith("kysely_") && !derived(t.name));
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

describe("the phone search index (2026-11-25T06-00_phone_search)", () => {
  const name = "2026-11-25T06-00_phone_search";
  const before = knownMigrations()[knownMigrations().indexOf(name) - 1];
  const user = (uid: number, phone: string) => ({
    uid,
    phone,
    password_hash: "",
    role: 1,
    status: 1,
    nickname: `u${uid}`,
    frp_token: `token-${uid}`,
    invite_code: `code-${uid}`,
    created_at: new Date().toISOString(),
  });
  const found = async (db: Kysely<DB>, text: string) =>
    (await uidsWithPhoneContaining(db, text).execute()).map((r) => r.uid).sort((a, b) => a - b);
  /** The objects the migration makes: SQLite's FTS table (with its shadow tables) and triggers, PostgreSQL's index. */
  const objects = async (db: Kysely<DB>) =>
    TEST_DIALECT === "sqlite"
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where name like 'users_phone%' order by name`.execute(db)
        ).rows.map((r) => r.name)
      : (
          await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where indexname = 'users_phone_trgm'`.execute(db)
        ).rows.map((r) => r.name);

  it("indexes the users already there, and down() removes what up() made", async () => {
    const { db } = await open();
    await migrateTo(db, before);
    await db
      .insertInto("users")
      .values([user(7, "13711112222"), user(8, "nophone:13711112222"), user(9, "15800001111")])
      .execute();
    expect(await objects(db)).toEqual([]);
    await migrateToLatest(db);
    expect((await objects(db)).length).toBeGreaterThan(0);
    expect(await found(db, "711112")).toEqual([7]);
    expect(await found(db, "1111")).toEqual([7, 9]);

    await phoneSearch.down(db);
    expect(await objects(db)).toEqual([]);
    // Without the triggers' table, users are written as before.
    await db.insertInto("users").values(user(10, "13711113333")).execute();
    await db.updateTable("users").set({ phone: "13711114444" }).where("uid", "=", 10).execute();
    // up() again (in a transaction, as the migrator runs it) indexes them all again.
    await db.transaction().execute((trx) => phoneSearch.up(trx));
    expect(await found(db, "711114")).toEqual([10]);
    expect(await found(db, "7111")).toEqual([7, 10]);
  });

  it(
    "without the right to create pg_trgm (a managed database), migrates without the index and the search still works",
    onlyOn("postgres", "roles and extension rights are PostgreSQL's"),
    async () => {
      const pgDb = await createPgDatabase("burrow_noext");
      const role = `burrow_noext_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      // PostgreSQL asks for a password on 127.0.0.1 (no trust authentication): the role gets one of its own.
      const password = randomBytes(16).toString("hex");
      const owner = createDb({ databaseUrl: pgDb.url });
      let asRole: Kysely<DB> | undefined;
      cleanups.push(async () => {
        await asRole?.destroy();
        await owner.destroy();
        await pgDb.drop();
        await sql`drop role if exists ${sql.id(role)}`.execute(admin);
        await admin.destroy();
      });
      const admin = createDb({ databaseUrl: pgDb.url.replace(/\/[^/]*$/, "/postgres") });
      await migrateTo(owner, before);
      // A role that owns the tables but may not create an extension in the database (not its owner, not a superuser).
      await sql`create role ${sql.id(role)} login password ${sql.lit(password)}`.execute(owner);
      // It owns the tables, as Burrow's role should (docs/deploy.md): later migrations add columns
      // (only a table's owner may) and fix data; and it may create tables in its schema. All but
      // tunnel_traffic, which it may only use: an index there cannot be made (asserted below).
      const tables = await sql<{ tablename: string }>`
        select tablename from pg_tables where schemaname = 'public' and tablename <> 'tunnel_traffic'`.execute(owner);
      for (const { tablename } of tables.rows)
        await sql`alter table ${sql.id(tablename)} owner to ${sql.id(role)}`.execute(owner);
      await sql`grant select, insert, update, delete on tunnel_traffic to ${sql.id(role)}`.execute(owner);
      await sql`grant create on schema public to ${sql.id(role)}`.execute(owner);
      await owner
        .insertInto("users")
        .values([user(7, "13711112222"), user(8, "nophone:13711112222")])
        .execute();
      const url = new URL(pgDb.url);
      url.username = role;
      url.password = password;
      asRole = createDb({ databaseUrl: url.toString() });

      // The migrations warn at start-up, once per index they could not make: that is the point here,
      // asserted rather than printed.
      const { result, warnings } = await catchWarnings(/ not created, /, () => migrateToLatest(asRole!));
      expect(warnings.map((w) => w.split(" ")[0]).sort()).toEqual([
        "tunnel_traffic_uid_day_node",
        "tunnels_name_trgm",
        "users_phone_trgm",
      ]);
      expect(result.applied).toEqual(knownMigrations().slice(knownMigrations().indexOf(name)));
      expect(await objects(asRole)).toEqual([]);
      const ext = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(asRole);
      expect(ext.rows[0].n).toBe(0);
      expect(await found(asRole, "711112")).toEqual([7]);
      // Nor may it index the traffic it does not own (2026-11-25T13-00_traffic_uid_node): the old
      // customer traffic index stays, and the migrations after it still ran.
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
        where tablename = 'tunnel_traffic' and indexname like 'tunnel_traffic_uid_day%'`.execute(asRole);
      expect(indexes.rows.map((r) => r.indexname)).toEqual(["tunnel_traffic_uid_day_sums"]);
    },
  );
});

describe("2026-11-25T11-00_orphan_tunnels", () => {
  it("deletes the tunnels left on a deleted node, frees their domains, and leaves every other tunnel", async () => {
    const { db } = await open();
    await migrateTo(db, "2026-11-25T08-00_tunnel_name_search");
    const now = new Date().toISOString();
    const node = await db
      .insertInto("nodes")
      .values({
        name: "kept",
        area_id: 1,
        net_type_id: 1,
        level_id: 1,
        host: "node.example.net",
        bind_port: 7000,
        vhost_http_port: 80,
        vhost_https_port: 443,
        subdomain_host: null,
        port_min: 20000,
        port_max: 20100,
        bandwidth: 0,
        status: 2,
        api_addr: "http://127.0.0.1:7500",
        api_user: "admin",
        api_password: "x",
        plugin_secret: "y",
        description: "",
        sort: 0,
        created_at: now,
      })
      .returning("node_id")
      .executeTakeFirstOrThrow();
    const gone = node.node_id + 100;
    const tunnel = (tun_id: number, node_id: number, status: number, run_id: string | null = null) => ({
      ...tunnelRow({ uid: 2, node_id, tun_name: `t${tun_id}`, remote_port: 20000 + tun_id, status }, now),
      tun_id,
      run_id,
    });
    const rows = [
      tunnel(1, node.node_id, 2),
      tunnel(2, gone, 2),
      tunnel(3, gone, -1, "r3"),
      tunnel(4, gone, -1),
      tunnel(5, node.node_id, -1, "r5"),
    ];
    await db.insertInto("tunnels").values(rows).execute();
    await db
      .insertInto("tunnel_domains")
      .values([
        { domain: "a.example.com", tun_id: 1, node_id: node.node_id },
        { domain: "b.example.com", tun_id: 2, node_id: gone },
      ])
      .execute();
    await migrateToLatest(db);
    const after = await db.selectFrom("tunnels").select(["tun_id", "status", "run_id"]).orderBy("tun_id").execute();
    expect(after).toEqual([
      { tun_id: 1, status: 2, run_id: null },
      { tun_id: 2, status: -1, run_id: null },
      { tun_id: 3, status: -1, run_id: null },
      { tun_id: 4, status: -1, run_id: null },
      { tun_id: 5, status: -1, run_id: "r5" },
    ]);
    expect(await db.selectFrom("tunnel_domains").select("domain").execute()).toEqual([{ domain: "a.example.com" }]);
  });
});
