import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type pg from "pg";
import { createDb } from "../src/db/database";
import { migrateToLatest } from "../src/db/migrate";
import { migrations } from "../src/db/migrations";

/**
 * Migrated databases for the API tests, copied from a template instead of migrated one by one:
 * running every migration was most of a test file's set-up (docs/performance.md, "Test time").
 * A template is keyed by a hash of the migration files (and the code that runs them), so it is
 * built once, reused by every later file and run while they are unchanged, and built anew when
 * one changes. Tests of the migrations themselves keep starting from an empty database.
 */

const DB_DIR = path.resolve(import.meta.dirname, "../src/db");

/** Hash of what decides a migrated schema: every migration file (names and contents), migrate.ts, dialect.ts. */
export function schemaHash(dbDir = DB_DIR): string {
  const h = createHash("sha256");
  const dir = path.join(dbDir, "migrations");
  const files = [
    ...fs
      .readdirSync(dir)
      .filter((n) => n.endsWith(".ts"))
      .sort()
      .map((n) => path.join(dir, n)),
    path.join(dbDir, "migrate.ts"),
    path.join(dbDir, "dialect.ts"),
  ];
  for (const f of files) h.update(path.relative(dbDir, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  return h.digest("hex").slice(0, 16);
}

/**
 * Hash of the migrations this process loaded (its module cache): the files may have changed on disk
 * since the worker started, and a template named after the files but built from stale modules would
 * lack the new migrations under the new name (seen once: a copy one migration short).
 */
function loadedMigrationsHash(): string {
  const h = createHash("sha256");
  for (const [name, m] of Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b)))
    h.update(name)
      .update("\0")
      .update(String(m.up))
      .update("\0")
      .update(String(m.down ?? ""))
      .update("\0");
  return h.digest("hex");
}

// Once per process: the files as they are and the migrations this process runs, both in the name.
let hash: string | undefined;
const currentHash = () =>
  (hash ??= createHash("sha256").update(schemaHash()).update(loadedMigrationsHash()).digest("hex").slice(0, 16));

// --- PostgreSQL -------------------------------------------------------------------------------

export const PG_TEMPLATE_PREFIX = "burrow_tpl_";
/** pg_advisory_lock key: one template build at a time on this server, whichever worker or run asks. */
const BUILD_LOCK = 0x62757272;
/**
 * Templates of other migration sets kept: another run in the same tree (an engineer who has not
 * pulled a new migration yet) may still be copying an older one; beyond these the oldest go.
 */
const OTHER_TEMPLATES_KEPT = 3;

const withDatabase = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** True when `name` is a finished template: marked as one only once its migrations have run. */
async function isTemplate(admin: pg.Client, name: string): Promise<boolean> {
  const r = await admin.query("select 1 from pg_database where datname = $1 and datistemplate", [name]);
  return r.rowCount === 1;
}

/**
 * Builds the template `name` unless it is there or another worker built it while this one waited
 * for the lock; says whether this call built it.
 */
export async function ensurePgTemplate(admin: pg.Client, adminUrl: string, name: string): Promise<boolean> {
  if (await isTemplate(admin, name)) return false;
  await admin.query("select pg_advisory_lock($1)", [BUILD_LOCK]);
  try {
    if (await isTemplate(admin, name)) return false;
    // Left half-built by a run that was stopped mid-build (it is not marked yet): start over.
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const db = createDb({ databaseUrl: withDatabase(adminUrl, name) });
    try {
      await migrateToLatest(db);
    } finally {
      // A database being copied may have no connection: close the migrating one first.
      await db.destroy();
    }
    await admin.query(`alter database ${name} is_template true`);
    if (name.startsWith(PG_TEMPLATE_PREFIX)) await dropOldTemplates(admin, name);
    return true;
  } finally {
    await admin.query("select pg_advisory_unlock($1)", [BUILD_LOCK]);
  }
}

/** Drops the templates of other migration sets but the newest OTHER_TEMPLATES_KEPT (by oid, which grows). */
async function dropOldTemplates(admin: pg.Client, keep: string): Promise<void> {
  const r = await admin.query<{ datname: string }>(
    "select datname from pg_database where datname like $1 and datname <> $2 order by oid desc",
    [`${PG_TEMPLATE_PREFIX.replaceAll("_", "\\_")}%`, keep],
  );
  for (const { datname } of r.rows.slice(OTHER_TEMPLATES_KEPT)) {
    try {
      await admin.query(`alter database ${datname} is_template false`);
      // Without force: one being copied right now stays until the next build.
      await admin.query(`drop database ${datname}`);
    } catch {
      // in use: the next build tries again
    }
  }
}

/**
 * Creates the database `name` as a copy of the migrated template, building the template first when
 * the migrations changed. `admin` is a superuser connection to another database.
 */
export async function createMigratedPgDatabase(admin: pg.Client, adminUrl: string, name: string): Promise<void> {
  const template = `${PG_TEMPLATE_PREFIX}${currentHash()}`;
  for (let attempt = 0; ; attempt++) {
    await ensurePgTemplate(admin, adminUrl, template);
    try {
      await admin.query(`create database ${name} template ${template}`);
      return;
    } catch (err) {
      // Dropped in between by a run of another migration set (dropOldTemplates): build it again, once.
      if ((err as { code?: string }).code !== "3D000" || attempt > 0) throw err;
    }
  }
}

// --- SQLite -----------------------------------------------------------------------------------

const SQLITE_TEMPLATES = path.join(os.tmpdir(), "burrow-test-templates");

/**
 * The path of a migrated SQLite file to copy (in `dir`), built when missing. Workers that build it
 * at the same time each write a copy of their own and rename it into place: the last one stays,
 * all alike.
 */
export async function sqliteTemplate(dir = SQLITE_TEMPLATES): Promise<string> {
  const file = path.join(dir, `${currentHash()}.sqlite`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const work = fs.mkdtempSync(path.join(dir, "build-"));
  try {
    const db = createDb({ sqliteFile: path.join(work, "t.sqlite") });
    const out = path.join(work, "out.sqlite");
    try {
      await migrateToLatest(db);
      // One self-contained file (no -wal beside it), whatever the connection's journal.
      await sql`vacuum into ${out}`.execute(db);
    } finally {
      await db.destroy();
    }
    fs.renameSync(out, file);
  } finally {
    fs.rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
  removeOldSqliteTemplates(dir, file);
  return file;
}

/** An hour: a run still copying an older template (another migration set) has long copied it by then. */
const SQLITE_TEMPLATE_KEPT_MS = 3_600_000;

/** Removes the templates of other migration sets, and builds a stopped run left, once an hour old. */
function removeOldSqliteTemplates(dir: string, keep: string): void {
  for (const name of fs.readdirSync(dir)) {
    const f = path.join(dir, name);
    try {
      if (f !== keep && Date.now() - fs.statSync(f).mtimeMs > SQLITE_TEMPLATE_KEPT_MS)
        fs.rmSync(f, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another worker
    }
  }
}
