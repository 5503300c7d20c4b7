import fs from "node:fs";
import path from "node:path";

/*
 * What Burrow keeps in DATA_DIR is for the account it runs under only: the SQLite database (the
 * JWT secret, sessions, password hashes), its backups, the uploads (ID photos, invoices) and the
 * pid file. Files 0600, directories 0700, set explicitly where Burrow creates them and under an
 * owner-only umask for the rest, whatever umask the service was started with (docs/security.md).
 */

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
/** The umask the server and the CLIs run under: whatever they create is the owner's only. */
export const OWNER_ONLY_UMASK = 0o077;

/** The SQLite database's name in DATA_DIR. */
export const SQLITE_FILE = "burrow.sqlite";
/** The pid file's name in DATA_DIR (`npm run restore` refuses while it names a live process). */
export const PID_FILE = "burrow.pid";

/**
 * Entries of DATA_DIR that Burrow writes: the database with what SQLite keeps beside it and the
 * copies taken before migrations and restores, the pid file, backups and uploads. Anything else an
 * operator put there is left as it is.
 */
const OURS = /^(burrow\.sqlite.*|burrow\.pid|backups|uploads)$/;

/** Creates `dir` (and missing parents) owner-only, and makes `dir` itself so if it existed. */
export function privateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  fs.chmodSync(dir, DIR_MODE);
}

/** Creates `file` empty when missing, and makes it owner-only either way. */
export function privateFile(file: string): void {
  fs.closeSync(fs.openSync(file, "a", FILE_MODE));
  fs.chmodSync(file, FILE_MODE);
}

/** Makes `file` owner-only if it exists (SQLite's -wal and -shm come and go). */
export function privateIfThere(file: string): void {
  try {
    fs.chmodSync(file, FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** SQLite's files beside a database: its write-ahead log and shared-memory index. */
export const sidecars = (file: string) => [`${file}-wal`, `${file}-shm`];

/**
 * Runs `fn` (which opens and closes `file` with SQLite; sync or async), then deletes the -wal and -shm that opening it left
 * behind and that were not there before: a read-only connection to a WAL database creates them
 * and, unable to checkpoint, leaves them when it closes.
 */
export function leavingNoSidecars<T>(file: string, fn: () => T): T {
  const before = sidecars(file).filter((f) => fs.existsSync(f));
  const clean = () => {
    for (const f of sidecars(file)) if (!before.includes(f)) fs.rmSync(f, { force: true });
  };
  let out: T;
  try {
    out = fn();
  } catch (err) {
    clean();
    throw err;
  }
  if (out instanceof Promise) return out.finally(clean) as T;
  clean();
  return out;
}

function tighten(p: string): number {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return 0;
  const want = st.isDirectory() ? DIR_MODE : FILE_MODE;
  let changed = 0;
  if ((st.mode & 0o777) !== want) {
    fs.chmodSync(p, want);
    changed++;
  }
  if (st.isDirectory()) for (const name of fs.readdirSync(p)) changed += tighten(path.join(p, name));
  return changed;
}

/**
 * Makes DATA_DIR and everything Burrow wrote in it owner-only, as an earlier version or a looser
 * umask left them (0644 files, 0755 directories); creates DATA_DIR when missing. Symbolic links
 * and what is not Burrow's are left alone. Returns how many modes changed.
 */
export function tightenDataDir(dataDir: string): number {
  let changed = 0;
  if (fs.existsSync(dataDir) && (fs.statSync(dataDir).mode & 0o777) !== DIR_MODE) changed++;
  privateDir(dataDir);
  for (const name of fs.readdirSync(dataDir)) if (OURS.test(name)) changed += tighten(path.join(dataDir, name));
  return changed;
}
