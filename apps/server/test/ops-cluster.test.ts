import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { OrderType } from "@burrow/contract";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../src/db/database";
import {
  freshPgDatabase,
  frpSetup,
  killAll,
  ok,
  pluginCall,
  REDIS_URL,
  registerCustomer,
  type ServerProcess,
  sandboxNotify,
  sendNotify,
  signIn,
  startServer,
  tempDir,
} from "./child-server";
import { onlyOn, TEST_DIALECT } from "./harness";

/**
 * Several Burrow processes on one PostgreSQL database and one Redis (docs/operations.md): what
 * one process changes the other's frp plugin refuses within a second, rate limits are shared,
 * jobs and the poller run once (leases) and a killed holder's job is taken over, and one payment
 * notified to both at once is credited once. Needs PostgreSQL and Redis, on either TEST_DB: it
 * fails saying which one is missing rather than skipping.
 */
/** It needs PostgreSQL whatever TEST_DB says; run once, in the PostgreSQL pass (skipped by name in the SQLite one). */
const RUN = TEST_DIALECT === "postgres";
const METRICS_TOKEN = "cluster-metrics-token-0123";
const JOBS_INTERVAL_S = 1;
const cleanups: (() => Promise<void> | void)[] = [];
let a: ServerProcess;
let b: ServerProcess;
let dbUrl: string;

const randomPhone = () => `137${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

beforeAll(async () => {
  if (!RUN) return;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(
      `Redis is required for the several-processes test and is not reachable at ${REDIS_URL} (${(err as Error).message}). Start it (scripts/ensure-test-deps.sh) or set TEST_REDIS_URL.`,
    );
  } finally {
    redis.disconnect();
  }
  const pg = await freshPgDatabase();
  cleanups.push(pg.drop);
  dbUrl = pg.url;
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL,
    METRICS_TOKEN,
    JOBS_INTERVAL: String(JOBS_INTERVAL_S),
    FRP_POLLER: "true",
    FRP_POLL_INTERVAL: "1",
  };
  const dirA = tempDir("cluster-a");
  const dirB = tempDir("cluster-b");
  cleanups.push(() => fs.rmSync(dirA, { recursive: true, force: true }));
  cleanups.push(() => fs.rmSync(dirB, { recursive: true, force: true }));
  a = await startServer({ dataDir: dirA, env });
  b = await startServer({ dataDir: dirB, env });
}, 60_000);

afterAll(async () => {
  await killAll();
  for (const c of cleanups) await c();
});

/** The value of one sample in a process's /metrics (0 when absent). */
async function sample(s: ServerProcess, pattern: RegExp): Promise<number> {
  const res = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  let sum = 0;
  for (const line of text.split("\n")) {
    const m = pattern.exec(line);
    if (m) sum += Number(line.split(" ").at(-1));
  }
  return sum;
}

/** Ms until `check` is true, polling every 20 ms; throws past `limitMs`. */
async function msUntil(check: () => Promise<boolean>, limitMs: number, what: string): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return Date.now() - t0;
    if (Date.now() - t0 > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const SHARED_DB = onlyOn(
  "postgres",
  "two processes share one database only on PostgreSQL (SQLite is one process's file)",
);
describe("two processes on one PostgreSQL and one Redis (in the TEST_DB=postgres pass)", SHARED_DB, () => {
  it("a ban made through one is refused by the other's plugin endpoint within a second", async () => {
    const f = await frpSetup(a, randomPhone());
    // B has the customer in its decision cache: allowed.
    expect(await pluginCall(b, f.node, "Ping", { user: f.user })).toMatchObject({ reject: false });
    ok(
      await a.api("PATCH", "/super/user/info", {
        token: f.admin,
        body: { uid: f.uid, status: -1, ban_reason: "abuse" },
      }),
      "ban",
    );
    const ms = await msUntil(
      async () => (await pluginCall(b, f.node, "Ping", { user: f.user })).reject,
      1000,
      "the ban reached the other process",
    );
    expect(ms).toBeLessThan(1000);
  });

  it("a tunnel locked through one is refused by the other's plugin endpoint within a second", async () => {
    const f = await frpSetup(b, randomPhone());
    const conn = { user: f.user, proxy_name: f.proxyName, proxy_type: "tcp", remote_addr: "198.51.100.5:1000" };
    expect(await pluginCall(a, f.node, "NewUserConn", conn)).toMatchObject({ reject: false });
    ok(
      await b.api("PATCH", "/super/tun", { token: f.admin, body: { tun_id: f.tunId, status: 3, banned_reason: "x" } }),
      "lock",
    );
    const ms = await msUntil(
      async () => (await pluginCall(a, f.node, "NewUserConn", conn)).reject,
      1000,
      "the lock reached the other process",
    );
    expect(ms).toBeLessThan(1000);
  });

  it("a session signed out, or reset from the command line, through one is refused by the other within a second", async () => {
    const phone = randomPhone();
    const c = await registerCustomer(a, phone);
    const second = await signIn(b, phone, "password-123");
    const status = async (s: ServerProcess, token: string) => (await s.api("GET", "/user/userInfo", { token })).status;
    // Both processes hold both sessions in memory.
    for (const s of [a, b]) for (const token of [c.token, second]) expect(await status(s, token)).toBe(200);

    ok(await a.api("POST", "/auth/logout", { token: c.token }), "logout");
    expect(await status(a, c.token)).toBe(401);
    const ms = await msUntil(
      async () => (await status(b, c.token)) === 401,
      1000,
      "the sign-out reached the other process",
    );
    expect(ms).toBeLessThan(1000);
    expect(await status(b, second)).toBe(200);

    // `npm run admin -- reset-password` is a third process: it announces through Redis too.
    const cliDir = tempDir("cluster-cli");
    cleanups.push(() => fs.rmSync(cliDir, { recursive: true, force: true }));
    const cli = spawnSync("npx", ["tsx", "src/cli/admin.ts", "reset-password", phone], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, DATABASE_URL: dbUrl, REDIS_URL, DATA_DIR: cliDir },
      encoding: "utf8",
    });
    expect(cli.status, cli.stderr).toBe(0);
    for (const s of [a, b]) {
      const refused = await msUntil(async () => (await status(s, second)) === 401, 1000, "the reset reached a server");
      expect(refused).toBeLessThan(1000);
    }
  });

  it("shares rate limits: wrong passwords split across both processes lock the account for both", async () => {
    const phone = randomPhone();
    await frpSetup(a, phone);
    const wrong = (s: ServerProcess) => s.api("POST", "/auth/login", { body: { phone, password: "wrong-password-1" } });
    // 5 failures per phone are allowed in the window: 3 through A, 2 through B.
    for (const s of [a, a, a, b, b]) expect((await wrong(s)).status).not.toBe(429);
    expect((await wrong(a)).status).toBe(429);
    expect((await wrong(b)).status).toBe(429);
  });

  it("credits a payment notified to both processes at once exactly once", async () => {
    const f = await frpSetup(b, randomPhone());
    const order = ok(
      await a.api<{ trade_id: string; amount: number }>("POST", "/user/order", {
        token: f.token,
        body: { type: OrderType.Recharge, amount: 4321, pay_method: 2 },
      }),
      "order",
    );
    const n = sandboxNotify(order);
    const answers = await Promise.all([a, b, a, b, a, b].map((s) => sendNotify(s, n)));
    expect(answers).toEqual(Array(6).fill("success"));
    const db = createDb({ databaseUrl: dbUrl });
    try {
      const rows = await db
        .selectFrom("balance_ledger")
        .select("change")
        .where("order_id", "=", order.trade_id)
        .execute();
      expect(rows.map((r) => Number(r.change))).toEqual([4321]);
      const u = await db.selectFrom("users").select("balance").where("uid", "=", f.uid).executeTakeFirstOrThrow();
      expect(Number(u.balance)).toBe(4321);
    } finally {
      await db.destroy();
    }
  });

  it("runs each job and each node's poll once, and the other process takes a killed holder's job over", async () => {
    const f = await frpSetup(a, randomPhone());
    const job = /^burrow_job_runs_total\{job="orders\.close-unpaid",result="ok"\}/;
    const polls = new RegExp(`^burrow_frp_poll_duration_seconds_count\\{node="${f.node.node_id}"\\}`);
    const windowStart = await Promise.all([a, b].map((s) => sample(s, polls)));
    const jobStart = await Promise.all([a, b].map((s) => sample(s, job)));
    await new Promise((r) => setTimeout(r, 4000));
    const jobRuns = (await Promise.all([a, b].map((s) => sample(s, job)))).map((v, i) => v - jobStart[i]);
    const pollRuns = (await Promise.all([a, b].map((s) => sample(s, polls)))).map((v, i) => v - windowStart[i]);
    // One process holds the job's lease and runs it about once a second; the other never does.
    expect(jobRuns.filter((n) => n > 0)).toHaveLength(1);
    expect(Math.max(...jobRuns)).toBeGreaterThanOrEqual(2);
    // The node is polled once per interval in all (not once per process): ≤ 4 s / 1 s + 1.
    const totalPolls = pollRuns[0] + pollRuns[1];
    expect(totalPolls).toBeGreaterThanOrEqual(2);
    expect(totalPolls).toBeLessThanOrEqual(5);

    const [holder, other] = jobRuns[0] > 0 ? [a, b] : [b, a];
    const before = await sample(other, job);
    holder.child.kill("SIGKILL");
    await holder.exited;
    // The killed holder's lease lasts one interval from its last heartbeat (every third of one),
    // and the other process tries again right when it runs out: within one interval of the kill
    // (plus the 20 ms this loop polls /metrics at).
    const ms = await msUntil(async () => (await sample(other, job)) > before, JOBS_INTERVAL_S * 1000 + 100, "takeover");
    console.log(`cluster: job runs per process ${jobRuns}, node polls ${pollRuns}; takeover ${ms} ms after SIGKILL`);
    const p0 = await sample(other, polls);
    await msUntil(async () => (await sample(other, polls)) > p0, 2 * 1000 + 1500, "the survivor polls the node");
  }, 30_000);
});
