// `npm run backup [-- <file>]` and `npm run restore -- <file>`: a consistent copy of the SQLite
// database while the server runs (SQLite's online backup API), and bringing one back while it is
// stopped. PostgreSQL: pg_dump / pg_restore (docs/deploy.md). DATA_DIR as for `npm start`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import {
  DIR_MODE,
  FILE_MODE,
  leavingNoSidecars,
  OWNER_ONLY_UMASK,
  PID_FILE,
  privateDir,
  SQLITE_FILE,
  sidecars,
  tightenDataDir,
} from "../db/data-dir";

const USAGE = `Usage:
  npm run backup [-- <file>]    consistent copy of DATA_DIR/burrow.sqlite while Burrow runs
                                (default: DATA_DIR/backups/burrow-<UTC time>.sqlite)
  npm run restore -- <file>     replaces DATA_DIR/burrow.sqlite with the copy; Burrow must be
                                stopped (the current database is kept beside it)
`;

/** The pid of a live Burrow process serving this data directory, or null. */
export function runningServer(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, PID_FILE), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    // EPERM: alive under another user; ESRCH: gone (a crash left the file).
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/** Opens a copy read-only and checks it is a whole Burrow database; returns its table count. */
function check(file: string): { migrations: number } {
  return leavingNoSidecars(file, () => checkOpen(file));
}

function checkOpen(file: string): { migrations: number } {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`${file} is damaged: integrity_check says ${String(integrity)}`);
    const row = db.prepare("select count(*) as n from kysely_migration").get() as { n: number } | undefined;
    if (!row) throw new Error(`${file} is not a Burrow database (no migrations table)`);
    return { migrations: row.n };
  } catch (err) {
    if (err instanceof SQLite.SqliteError) throw new Error(`${file} is not a Burrow database: ${err.message}`);
    throw err;
  } finally {
    db.close();
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");

/**
 * Copies `source` to `dest` with the online backup API in one step: the copy is a snapshot of one
 * read transaction, whatever the server writes meanwhile (page-by-page steps would restart on
 * every write of the running server). The copy is one owner-only file: taken out of WAL mode
 * (the backup API copies the live file's mode, and opening a WAL copy leaves a -wal and a -shm
 * beside it), with nothing left beside it.
 */
export async function backupSqlite(source: string, dest: string): Promise<void> {
  // New directories owner-only; an existing one chosen by the operator is left as it is.
  fs.mkdirSync(path.dirname(dest), { recursive: true, mode: DIR_MODE });
  const tmp = `${dest}.partial`;
  const clean = () => {
    for (const f of [tmp, ...sidecars(tmp)]) fs.rmSync(f, { force: true });
  };
  clean();
  try {
    // Read-write, so that with the server stopped this last connection folds and removes its -wal.
    const db = new SQLite(source, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 10000");
      await db.backup(tmp, { progress: () => 2 ** 30 });
    } finally {
      db.close();
    }
    fs.chmodSync(tmp, FILE_MODE);
    const copy = new SQLite(tmp, { fileMustExist: true });
    try {
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    check(tmp);
    fs.renameSync(tmp, dest);
  } finally {
    clean();
  }
}

/** Replaces the data directory's database with `source`; the current one is renamed beside it. */
export async function restoreSqlite(dataDir: string, source: string): Promise<string | null> {
  const pid = runningServer(dataDir);
  if (pid !== null)
    throw new Error(
      `Burrow is running on ${dataDir} (pid ${pid}): stop it first (systemctl stop burrow, or SIGTERM), then restore`,
    );
  check(source);
  const live = path.join(dataDir, SQLITE_FILE);
  let kept: string | null = null;
  if (fs.existsSync(live)) {
    // Fold the WAL into the file first, so that the copy kept aside is whole on its own.
    const db = new SQLite(live);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    kept = `${live}.before-restore-${stamp()}`;
    fs.renameSync(live, kept);
    for (const f of sidecars(live)) fs.rmSync(f, { force: true });
  }
  await leavingNoSidecars(source, async () => {
    const src = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      await src.backup(live);
    } finally {
      src.close();
    }
  });
  tightenDataDir(dataDir);
  return kept;
}

async function main(argv: string[]): Promise<number> {
  const [command, file, ...rest] = argv;
  if ((command !== "backup" && command !== "restore") || rest.length > 0 || (command === "restore" && !file)) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (process.env.DATABASE_URL) {
    process.stderr.write(
      "DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc and restore with pg_restore (docs/deploy.md, Backups).\n",
    );
    return 1;
  }
  // Whatever this creates (a backup, a restored database, a directory) is the owner's only.
  process.umask(OWNER_ONLY_UMASK);
  const dataDir = path.resolve(process.env.DATA_DIR || "./data");
  const live = path.join(dataDir, SQLITE_FILE);
  try {
    if (command === "backup") {
      if (!fs.existsSync(live)) throw new Error(`No database at ${live}: set DATA_DIR to Burrow's data directory`);
      if (!file) privateDir(path.join(dataDir, "backups"));
      const dest = path.resolve(file ?? path.join(dataDir, "backups", `burrow-${stamp()}.sqlite`));
      if (fs.existsSync(dest)) throw new Error(`${dest} exists; choose another file`);
      await backupSqlite(live, dest);
      const { size } = fs.statSync(dest);
      process.stdout.write(`Backup written: ${dest} (${(size / 1024 / 1024).toFixed(1)} MB, checked)\n`);
      process.stdout.write(`Uploaded files are not in it: copy ${path.join(dataDir, "uploads")} too.\n`);
      return 0;
    }
    const kept = await restoreSqlite(dataDir, path.resolve(file as string));
    process.stdout.write(
      `Restored ${path.resolve(file as string)} to ${live}.${kept ? ` The database it replaced is kept as ${kept}.` : ""}\n` +
        "Start Burrow again; a backup from an older version is migrated at start.\n",
    );
    return 0;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
