import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, ok, registerCustomer, signIn, startServer, tempDir } from "./child-server";
import { ADMIN_PASSWORD, ADMIN_PHONE, onlyOn } from "./harness";

/**
 * `npm run backup` copies the SQLite database while the server serves (and writes), and
 * `npm run restore` brings the copy back — refused while a server runs on that data directory.
 * SQLite only (PostgreSQL: pg_dump/pg_restore, docs/deploy.md), whatever TEST_DB says.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const cleanups: (() => void)[] = [];
afterAll(async () => {
  await killAll();
  for (const c of cleanups) c();
});

/** Runs the root package's script as an operator would (`npm run`), or its command directly (quicker). */
function npmRun(script: string, args: string[], env: Record<string, string>, viaNpm = false) {
  const [cmd, cmdArgs] = viaNpm
    ? ["npm", ["run", "--silent", script, "--", ...args]]
    : [process.execPath, ["--import", "tsx", "apps/server/src/cli/backup.ts", script, ...args]];
  const r = spawnSync(cmd, cmdArgs as string[], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const countUsers = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare("select count(*) as n from users").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

const SQLITE_FILE = onlyOn(
  "sqlite",
  "burrow-admin backup/restore copies the SQLite file; PostgreSQL has its own tools",
);
describe("backup and restore (SQLite; in the SQLite pass only)", SQLITE_FILE, () => {
  it("backs up while serving and writing, refuses to restore under a running server, restores once stopped", async () => {
    const dataDir = tempDir("backup");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir };
    let s = await startServer({ dataDir });
    const admin = await signIn(s, ADMIN_PHONE, ADMIN_PASSWORD);
    const kept = await registerCustomer(s, "13900003001");

    // Writes go on during the backup: an operator renaming the customer in a loop.
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        ok(
          await s.api("PATCH", "/super/user/info", {
            token: admin,
            body: { uid: kept.uid, balance_change: 1, balance_reason: "w" },
          }),
          "write",
        );
        writes++;
      }
    })();
    const dest = path.join(dataDir, "copy", "burrow-copy.sqlite");
    const backup = npmRun("backup", [dest], env, true);
    writing = false;
    await writer;
    expect(backup.out).toContain("Backup written");
    expect(backup.code).toBe(0);
    expect(writes).toBeGreaterThan(0);
    // One file, owner-only, nothing beside it (no -wal, -shm or .partial: issue 30 §11).
    expect(fs.readdirSync(path.dirname(dest))).toEqual(["burrow-copy.sqlite"]);
    expect(fs.statSync(dest).mode & 0o777).toBe(0o600);
    // Consistent: the copy's balance equals the sum of its own ledger, whatever moment it caught.
    const copy = new SQLite(dest, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const u = copy.prepare("select balance from users where uid = ?").get(kept.uid) as { balance: number };
      const l = copy
        .prepare("select coalesce(sum(change), 0) as s from balance_ledger where uid = ?")
        .get(kept.uid) as {
        s: number;
      };
      expect(u.balance).toBe(l.s);
    } finally {
      copy.close();
    }
    expect(npmRun("backup", [dest], env).code).toBe(1); // never overwrites

    // A customer registered after the backup is gone after the restore.
    await registerCustomer(s, "13900003002");
    const before = countUsers(dest);
    const refused = npmRun("restore", [dest], env);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(`Burrow is running on ${dataDir} (pid ${s.child.pid})`);

    s.child.kill("SIGTERM");
    expect((await s.exited).code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "burrow.pid"))).toBe(false);
    const restored = npmRun("restore", [dest], env, true);
    expect(restored.out).toContain("Restored");
    expect(restored.code).toBe(0);
    expect(fs.readdirSync(dataDir).some((f) => f.startsWith("burrow.sqlite.before-restore-"))).toBe(true);
    expect(countUsers(path.join(dataDir, "burrow.sqlite"))).toBe(before);

    s = await startServer({ dataDir });
    expect(
      (await s.api("POST", "/auth/login", { body: { phone: "13900003001", password: "password-123" } })).body.code,
    ).toBe("SUCCESS");
    expect(
      (await s.api("POST", "/auth/login", { body: { phone: "13900003002", password: "password-123" } })).body.code,
    ).not.toBe("SUCCESS");

    // Not a Burrow database: refused, nothing replaced.
    fs.writeFileSync(path.join(dataDir, "junk.sqlite"), "not a database");
    s.child.kill("SIGTERM");
    await s.exited;
    const junk = npmRun("restore", [path.join(dataDir, "junk.sqlite")], env);
    expect(junk.code).toBe(1);
    expect(countUsers(path.join(dataDir, "burrow.sqlite"))).toBe(before);
  }, 180_000);
});
