import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, registerCustomer, startServer, tempDir } from "./child-server";
import { onlyOn } from "./harness";

/**
 * Issue 30 §11: what Burrow keeps in DATA_DIR (the SQLite database with the JWT secret, sessions
 * and password hashes, its -wal and -shm, backups, uploads, the pid file) is readable by its owner
 * only — files 0600, directories 0700 — whatever umask it runs under (here 000, the loosest), and
 * what an earlier version left looser is tightened at start; `npm run backup` leaves a single
 * file, with no -wal, -shm or partial beside it. SQLite only (the database's files), whatever
 * TEST_DB says; real server processes.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const cleanups: (() => void)[] = [];
afterAll(async () => {
  await killAll();
  for (const c of cleanups) c();
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** Every path under `dir`, itself included, with its mode. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    out[path.relative(dir, p) || "."] = mode(p).toString(8);
    if (fs.statSync(p).isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
  };
  walk(dir);
  return out;
}

/** `npm run backup|restore` as cli/backup.ts runs it. */
function cli(command: string, args: string[], dataDir: string) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "apps/server/src/cli/backup.ts", command, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const SQLITE_FILES = onlyOn("sqlite", "the files checked are the SQLite database's, its WAL and its backups");
describe("file modes in DATA_DIR (SQLite; in the SQLite pass only)", SQLITE_FILES, () => {
  it("keeps every file 0600 and every directory 0700 under umask 000, fixes older ones, and backs up to one file", async () => {
    const dataDir = tempDir("files");
    const elsewhere = tempDir("files-out");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(() => fs.rmSync(elsewhere, { recursive: true, force: true }));
    // What an earlier version left: world-readable uploads and backups, and an operator's own note.
    fs.mkdirSync(path.join(dataDir, "uploads", "tickets"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "uploads", "tickets", "old.png"), "x");
    fs.mkdirSync(path.join(dataDir, "backups"));
    fs.writeFileSync(path.join(dataDir, "backups", "old.sqlite"), "x");
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "the operator's");
    for (const d of [dataDir, path.join(dataDir, "uploads"), path.join(dataDir, "uploads", "tickets")])
      fs.chmodSync(d, 0o755);
    for (const f of ["uploads/tickets/old.png", "backups/old.sqlite", "notes.txt"])
      fs.chmodSync(path.join(dataDir, f), 0o644);

    // The loosest umask for everything started from here (the server, the CLI).
    const umask = process.umask(0);
    try {
      const s = await startServer({ dataDir });
      // Writes: a customer (the database and its WAL), an avatar (an upload in a new directory).
      const c = await registerCustomer(s, "13900005001");
      const form = new FormData();
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
      form.append("file", new Blob([png], { type: "image/png" }), "a.png");
      const up = await fetch(`${s.url}/api/user/avatar`, {
        method: "POST",
        headers: { authorization: `Bearer ${c.token}` },
        body: form,
      });
      expect(((await up.json()) as { code: string }).code).toBe("SUCCESS");

      // Backups while it runs: the default one under DATA_DIR/backups, and one to a new directory elsewhere.
      const def = cli("backup", [], dataDir);
      expect(def.code, def.out).toBe(0);
      const copy = path.join(elsewhere, "new-dir", "burrow.sqlite");
      const out = cli("backup", [copy], dataDir);
      expect(out.code, out.out).toBe(0);
      expect(modes(path.join(elsewhere, "new-dir"))).toEqual({ ".": "700", "burrow.sqlite": "600" });

      const seen = modes(dataDir);
      const backups = fs.readdirSync(path.join(dataDir, "backups"));
      expect(backups).toHaveLength(2);
      expect(backups.filter((b) => !/^burrow-[\dT-]+\.sqlite$/.test(b))).toEqual(["old.sqlite"]);
      for (const f of ["burrow.sqlite", "burrow.sqlite-wal", "burrow.sqlite-shm", "burrow.pid"])
        expect(Object.keys(seen)).toContain(f);
      expect(seen["uploads/avatars"]).toBe("700");
      const { "notes.txt": note, ...ours } = seen;
      expect(note).toBe("644");
      for (const [p, m] of Object.entries(ours))
        expect(`${p} ${m}`).toBe(`${p} ${fs.statSync(path.join(dataDir, p)).isDirectory() ? "700" : "600"}`);

      s.child.kill("SIGTERM");
      expect((await s.exited).code).toBe(0);
      // Restored under umask 000 too: the database and the one set aside stay the owner's.
      const restored = cli("restore", [copy], dataDir);
      expect(restored.code, restored.out).toBe(0);
      expect(mode(path.join(dataDir, "burrow.sqlite"))).toBe(0o600);
      const aside = fs.readdirSync(dataDir).filter((f) => f.startsWith("burrow.sqlite.before-restore-"));
      expect(aside.map((f) => mode(path.join(dataDir, f)))).toEqual([0o600]);
      // Reading the copy left nothing beside it.
      expect(fs.readdirSync(path.join(elsewhere, "new-dir"))).toEqual(["burrow.sqlite"]);
    } finally {
      process.umask(umask);
    }
  }, 180_000);
});
