import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Kysely, type MigrationProvider, Migrator, sql } from "kysely";
import { FILE_MODE } from "./data-dir";
import { isPostgres } from "./dialect";
import { migrations } from "./migrations/index";
import type { DB } from "./schema";

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Kysely's bookkeeping table: one row per executed migration, by name. */
const MIGRATION_TABLE = "kysely_migration";
/** Pre-migration SQLite backups kept beside the database; older ones are deleted. */
export const BACKUPS_KEPT = 3;

export interface MigrateResult {
  /** the migrations this call ran, in order */
  applied: string[];
  /** the last migration the database had before, when it was not new */
  from?: string;
  /** the SQLite backup written before them, when there was an existing database to back up */
  backup?: string;
}

/** Thrown when the database was migrated by a newer Burrow: nothing was run. */
export class SchemaTooNewError extends Error {}

/** The names of every migration this code knows, in the order they run. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

async function executedMigrations(db: Kysely<DB>): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === MIGRATION_TABLE && (t.schema === undefined || t.schema === "public"))) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return rows.rows.map((r) => r.name).sort();
}

/** The file of a SQLite database, or undefined in memory (or on PostgreSQL). */
async function sqliteFile(db: Kysely<DB>): Promise<string | undefined> {
  if (isPostgres(db)) return undefined;
  const r = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db);
  const file = r.rows[0]?.file;
  return file ? file : undefined;
}

/**
 * Copies the SQLite database beside itself with SQLite's online backup (consistent while other
 * connections, such as the log worker, have the file open; a plain file copy would miss the WAL),
 * then deletes all but the newest BACKUPS_KEPT copies.
 */
export async function backupSqlite(file: string, schemaAt: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const dest = `${file}.backup-${stamp}-at-${schemaAt}`;
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(dest);
  } finally {
    source.close();
  }
  fs.chmodSync(dest, FILE_MODE);
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.backup-`;
  // The ISO timestamp right after the prefix makes name order the order they were taken in.
  const backups = fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(prefix))
    .sort();
  for (const old of backups.slice(0, -BACKUPS_KEPT)) fs.rmSync(path.join(dir, old), { force: true });
  return dest;
}

/**
 * Brings the schema up to date at start, forward only (no migration is ever undone here). Refuses
 * a database that a newer Burrow already migrated (it has a migration this code does not know):
 * running against a schema it does not know could corrupt it. On SQLite with pending migrations,
 * first writes a backup beside the database. All pending migrations then run in one transaction
 * (PostgreSQL's and SQLite's DDL are both transactional): a failure leaves the schema as it was.
 * Throws with the failing migration's name.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<MigrateResult> {
  const known = knownMigrations();
  const executed = await executedMigrations(db);
  const unknown = executed.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `This database was migrated by a newer Burrow: its schema is at migration ${unknown.at(-1)}, ` +
        `and this Burrow knows migrations up to ${known.at(-1)}. Run the newer Burrow, or restore the ` +
        "backup taken before the upgrade (docs/upgrade.md). Nothing was changed.",
    );
  }
  const pending = known.filter((name) => !executed.includes(name));
  if (pending.length === 0) return { applied: [] };

  let backup: string | undefined;
  const file = executed.length > 0 ? await sqliteFile(db) : undefined; // a fresh database has nothing to keep
  if (file) backup = await backupSqlite(file, executed.at(-1) as string);

  const migrator = new Migrator({
    db,
    provider,
    // Migrations merged from parallel branches may sort before one already run; each runs once all the same.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? "?"} failed: ${String(error)}`, { cause: error });
  }
  const applied = (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  return { applied, from: executed.at(-1), backup };
}
