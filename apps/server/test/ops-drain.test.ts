import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../src/db/database";
import { freshPgDatabase, frpSetup, killAll, pluginCall, startServer, tempDir } from "./child-server";
import { ADMIN_PASSWORD, ADMIN_PHONE, TEST_DIALECT } from "./harness";

/**
 * SIGTERM drains (docs/operations.md): a real server process is sent SIGTERM while it is busy;
 * every request in flight is answered, visitor connections the frp plugin saw just before are
 * written (the writer flushes), the jobs stop and hand back their leases, and it exits 0.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await killAll();
  for (const c of cleanups) await c();
});

/** A POST whose body arrives in two halves, `gapMs` apart: in flight for that long. */
/** Sockets of the slow requests that have connected (the server reads their headers soon after). */
let connected = 0;

function slowPost(url: string, body: string, gapMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.on("socket", (sock) => sock.once("connect", () => connected++));
    req.write(body.slice(0, 10));
    setTimeout(() => req.end(body.slice(10)), gapMs);
  });
}

describe(`SIGTERM drains (${TEST_DIALECT})`, () => {
  it("answers every request in flight, flushes the frp writer, stops the jobs, then exits 0", async () => {
    const dataDir = tempDir("drain");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { JOBS_INTERVAL: "1" };
    if (TEST_DIALECT === "postgres") {
      const pg = await freshPgDatabase();
      cleanups.push(pg.drop);
      env.DATABASE_URL = pg.url;
    }
    const s = await startServer({ dataDir, env });
    const f = await frpSetup(s, "13900001001");
    // Let the jobs run once at least (they start 1 s after boot).
    await new Promise((r) => setTimeout(r, 1500));

    // In flight at SIGTERM: a sign-in whose body is still arriving, sign-ins queued behind one
    // argon2 worker (ARGON2_CONCURRENCY=1), and 20 frp visitor connections whose bodies arrive
    // after the signal (the writer must write them after they are answered, before the database closes).
    const login = JSON.stringify({ phone: ADMIN_PHONE, password: ADMIN_PASSWORD });
    const slow = [slowPost(`${s.url}/api/auth/login`, login, 2000)];
    for (let i = 0; i < 4; i++) slow.push(slowPost(`${s.url}/api/auth/login`, login, 10));
    const pluginUrl = `${s.url}/api/frp/plugin/${f.node.node_id}/${f.node.plugin_secret}?op=NewUserConn&version=0.1.0`;
    for (let i = 0; i < 20; i++) {
      const content = {
        user: f.user,
        proxy_name: f.proxyName,
        proxy_type: "tcp",
        remote_addr: `198.51.100.${i + 1}:40000`,
      };
      slow.push(slowPost(pluginUrl, JSON.stringify({ version: "0.1.0", op: "NewUserConn", content }), 1500));
    }
    const conn = await pluginCall(s, f.node, "NewUserConn", {
      user: f.user,
      proxy_name: f.proxyName,
      proxy_type: "tcp",
      remote_addr: "198.51.100.77:40000",
    });
    expect(conn).toMatchObject({ reject: false });
    // In flight means the server has the request's headers: a connection it has not read from yet
    // is idle, and closed at once (as any server's listen backlog is) — clients retry those.
    while (connected < slow.length) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    s.child.kill("SIGTERM");

    const answers = await Promise.all(slow);
    for (const a of answers.slice(0, 5)) expect([a.status, JSON.parse(a.body).code]).toEqual([200, "SUCCESS"]);
    for (const a of answers.slice(5))
      expect([a.status, JSON.parse(a.body)]).toEqual([200, { reject: false, unchange: true }]);
    const exit = await s.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(s.output()).toContain("shutting down");
    expect(s.output()).toContain("stopped");

    const db = createDb(
      env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { sqliteFile: path.join(dataDir, "burrow.sqlite") },
    );
    try {
      const conns = await db.selectFrom("tunnel_conns").selectAll().where("tun_id", "=", f.tunId).execute();
      expect(conns.map((c) => c.remote_addr).sort()).toEqual(
        ["198.51.100.77", ...Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 1}`)].sort(),
      );
      const leases = await db.selectFrom("job_leases").selectAll().execute();
      expect(leases.map((l) => l.name).sort()).toEqual(
        expect.arrayContaining(["orders.close-unpaid", "subscriptions.expire"]),
      );
      // Handed back: another process may take them at once.
      for (const l of leases) expect(new Date(l.expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
