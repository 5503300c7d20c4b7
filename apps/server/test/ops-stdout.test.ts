import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, freshPgDatabase, tempDir } from "./child-server";
import { ADMIN_PASSWORD, ADMIN_PHONE, TEST_DIALECT } from "./harness";

/**
 * Issue 30 §13: `npm start` run by a process that reads its stdout and stderr through pipes (a
 * supervisor, a terminal), which stops reading, then goes away as the group gets SIGTERM. The
 * server must be gone within SHUTDOWN_TIMEOUT whatever its stdout does, its pid file removed (or
 * `npm run restore` refuses). Before the fix it looped for ever at exit on write(1) = EPIPE.
 * Process-level: runs on either database (DATABASE_URL in the PostgreSQL pass).
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const SHUTDOWN_TIMEOUT = 3;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The reading process: starts `npm start` in a process group of its own with piped stdout and
 * stderr, says `ready <group>` once the banner came, then stops reading. On "stop" on its stdin it
 * sends SIGTERM to the group and, with `exitAtOnce`, exits at once (closing the pipes' read ends);
 * otherwise it stays, never reading again.
 */
const READER = `
import { spawn } from "node:child_process";
const [root, exitAtOnce] = process.argv.slice(2);
const child = spawn("npm", ["start"], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
let out = "";
const seen = (d) => {
  out += d;
  if (out.includes("Burrow is ready")) {
    out = "";
    child.stdout.pause();
    child.stderr.pause();
    process.stdout.write("ready " + child.pid + "\\n");
  }
};
child.stdout.on("data", seen);
child.stderr.on("data", seen);
child.on("exit", (code) => { if (out) process.stderr.write(out); });
process.stdin.on("data", () => {
  process.kill(-child.pid, "SIGTERM");
  if (exitAtOnce === "yes") process.exit(0);
});
`;

/** Whether `pid` runs (a zombie waiting for a parent that is gone counts as gone). */
function running(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

/** The processes still running in process group `pgid`. */
function groupMembers(pgid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const fields = fs.readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ");
        return fields[0] !== "Z" && Number(fields[2]) === pgid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!check() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 50));
  return Date.now() - t0;
}

describe(`SIGTERM with stdout's reader stalled or gone (${TEST_DIALECT}; process-level)`, () => {
  it.each([
    ["gone: the reader exits as the group gets SIGTERM", true],
    ["stalled: the reader stays and never reads again", false],
  ])(
    "%s — the server exits within SHUTDOWN_TIMEOUT and removes its pid file",
    async (_what, exitAtOnce) => {
      const dataDir = tempDir("stdout");
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        // Elsewhere than the tree's dist: npm start does not build the web app.
        WEB_DIST: path.join(dataDir, "no-web"),
        ADMIN_PHONE,
        ADMIN_PASSWORD,
        JWT_SECRET: "ops-test-jwt-secret-0123456789abcdef0123",
        FRP_POLLER: "false",
        LOG_LEVEL: "info",
        SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT),
      };
      if (TEST_DIALECT === "postgres") {
        const pg = await freshPgDatabase();
        cleanups.push(pg.drop);
        env.DATABASE_URL = pg.url;
      }
      const script = path.join(dataDir, "reader.mjs");
      fs.writeFileSync(script, READER);
      const reader: ChildProcess = spawn(process.execPath, [script, ROOT, exitAtOnce ? "yes" : "no"], {
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
      let said = "";
      reader.stdout?.on("data", (d) => {
        said += d;
      });
      reader.stderr?.on("data", (d) => {
        said += d;
      });
      const readerExited = new Promise<void>((resolve) => reader.once("exit", () => resolve()));
      cleanups.push(async () => {
        if (reader.exitCode === null && reader.signalCode === null) reader.kill("SIGKILL");
        await readerExited;
      });
      await waitFor(() => /ready \d+/.test(said) || reader.exitCode !== null, 60_000);
      const pgid = Number(/ready (\d+)/.exec(said)?.[1]);
      expect(pgid, said).toBeGreaterThan(0);
      cleanups.push(() => {
        for (const pid of groupMembers(pgid)) process.kill(pid, "SIGKILL");
      });
      const pidFile = path.join(dataDir, "burrow.pid");
      const serverPid = Number(fs.readFileSync(pidFile, "utf8"));
      expect(running(serverPid)).toBe(true);

      // Log lines nobody reads: one request line each (info), with a long URL, until the pipes are
      // full (a socket pair holds a few hundred kB) and the server's writes wait for the reader.
      const url = `http://127.0.0.1:${env.PORT}/api/auth/oidc/providers?pad=${"p".repeat(2000)}`;
      for (let i = 0; i < 40; i++)
        await Promise.all(Array.from({ length: 10 }, () => fetch(url).then((r) => r.text())));

      const t0 = Date.now();
      reader.stdin?.write("stop\n");
      if (exitAtOnce) await readerExited;
      const limit = SHUTDOWN_TIMEOUT * 1000 + 1500;
      await waitFor(() => !running(serverPid), limit);
      const took = Date.now() - t0;
      expect(running(serverPid), `the server (pid ${serverPid}) still runs ${took} ms after SIGTERM`).toBe(false);
      expect(took).toBeLessThan(limit);
      // npm and the start script follow it, and the pid file went with it.
      await waitFor(() => groupMembers(pgid).length === 0, 3000);
      expect(groupMembers(pgid)).toEqual([]);
      expect(fs.existsSync(pidFile)).toBe(false);
    },
    120_000,
  );
});
