import { fenToYuan } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode } from "../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../test/harness";
import { createDb } from "../db/database";
import { pollAll } from "../modules/frp/poller";
import { epaySign, gatewayKeys } from "../modules/payments/epay";
import { startJobs } from "../shared/jobs";
import { readiness } from "./ops";

const TOKEN = "metrics-token-0123456789";
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const scrape = async () => {
  const r = await get("/metrics", { authorization: `Bearer ${TOKEN}` });
  expect(r.statusCode).toBe(200);
  return r.body;
};

describe("/healthz and /readyz", () => {
  it("answers liveness at /healthz, and /api/healthz still answers (e2e waits on it)", async () => {
    const live = await get("/healthz");
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    const old = await get("/api/healthz");
    expect(old.json()).toMatchObject({ code: "SUCCESS", data: { status: "ok" } });
  });

  it("answers readiness with every dependency it checked", async () => {
    const r = await get("/readyz");
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: "ok", checks: { database: "ok" } });
  });

  it("says 503 and names the database when it does not answer", async () => {
    const dead = createDb({ databaseUrl: "postgres://nobody@127.0.0.1:1/none" });
    try {
      const r = await readiness({ ...t.ctx, db: dead });
      expect(r.ok).toBe(false);
      // Only "down": the error (host, port, user) stays in the log.
      expect(r.checks.database).toBe("down");
    } finally {
      await dead.destroy().catch(() => undefined);
    }
  });

  it("says 503 and names Redis when REDIS_URL is set and Redis does not answer", async () => {
    const t2 = await createTestApp({ REDIS_URL: "redis://127.0.0.1:1" });
    try {
      const r = await t2.app.inject({ method: "GET", url: "/readyz" });
      expect(r.statusCode).toBe(503);
      const body = r.json();
      expect(body).toMatchObject({ status: "unavailable", failed: ["redis"], checks: { database: "ok" } });
      expect(body.checks.redis).toBe("down");
      expect(r.body).not.toContain("127.0.0.1");
    } finally {
      await t2.close();
    }
  }, 20_000);
});

describe("/metrics", () => {
  it("is off (404) without METRICS_TOKEN", async () => {
    const t2 = await createTestApp();
    try {
      const r = await t2.app.inject({ method: "GET", url: "/metrics" });
      expect(r.statusCode).toBe(404);
      expect(r.body).not.toContain("burrow_");
    } finally {
      await t2.close();
    }
  });

  it("refuses a missing or wrong token, and tokens elsewhere than the Authorization header", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: "Bearer wrong-token-0123456789" },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}` },
    ]) {
      const r = await get("/metrics", headers);
      expect(r.statusCode).toBe(401);
      expect(r.body).not.toContain("burrow_");
    }
    expect((await get(`/metrics?token=${TOKEN}`)).statusCode).toBe(401);
  });

  it("counts requests by route pattern (never the raw URL) with latencies", async () => {
    await get("/api/public/site");
    await get("/api/user/tun/12345?x=secret-value");
    await get("/no/such/page/abc");
    const text = await scrape();
    expect(text).toMatch(/burrow_http_requests_total\{method="GET",route="\/api\/public\/site",status="200"\} \d+/);
    expect(text).toContain('route="/api/user/tun/:tunid"');
    expect(text).toContain('route="(unmatched)"');
    expect(text).toMatch(
      /burrow_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/public\/site"\}/,
    );
    expect(text).not.toContain("12345");
    expect(text).not.toContain("secret-value");
    expect(text).not.toContain("/no/such/page");
    expect(text).toContain("burrow_process_cpu_user_seconds_total");
  });

  it("counts frp plugin decisions per op and verdict", async () => {
    const node = await createTestNode(t);
    const row = { secret: node.plugin_secret };
    const plugin = (secret: string, body: unknown) =>
      t.app.inject({ method: "POST", url: `/api/frp/plugin/${node.node_id}/${secret}`, payload: body as object });
    const login = { op: "Login", content: { version: "0.61.0", user: "nobody", metas: {} } };
    expect((await plugin(row.secret, login)).json()).toMatchObject({ reject: true });
    expect((await plugin("wrong-secret", login)).statusCode).toBe(403);
    expect((await plugin(row.secret, { op: "Frob", content: {} })).json()).toMatchObject({ reject: false });
    const text = await scrape();
    expect(text).toMatch(/burrow_frp_plugin_decisions_total\{op="Login",verdict="reject"\} 1/);
    expect(text).toMatch(/burrow_frp_plugin_decisions_total\{op="Login",verdict="invalid"\} 1/);
    expect(text).toMatch(/burrow_frp_plugin_decisions_total\{op="other",verdict="allow"\} 1/);
    // The secret in the plugin URL never reaches a label.
    expect(text).not.toContain(row.secret);
    expect(text).toContain('route="/api/frp/plugin/:node_id/:secret"');
  });

  it("times polls per node and counts the failed ones", async () => {
    const node = await createTestNode(t, { api_addr: "http://127.0.0.1:1" });
    await pollAll(t.ctx, { timeoutMs: 1000 });
    const text = await scrape();
    expect(text).toMatch(new RegExp(`burrow_frp_poll_errors_total\\{node="${node.node_id}"\\} 1`));
    expect(text).toMatch(new RegExp(`burrow_frp_poll_duration_seconds_count\\{node="${node.node_id}"\\} 1`));
  });

  it("counts job runs per job, ok and failed", async () => {
    let n = 0;
    const stop = startJobs(t.ctx, [
      { name: "test.ok", everyMs: 60_000, firstDelayMs: 0, run: async () => n++ },
      {
        name: "test.fails",
        everyMs: 60_000,
        firstDelayMs: 0,
        run: async () => {
          n++;
          throw new Error("boom");
        },
      },
    ]);
    for (let i = 0; i < 100 && n < 2; i++) await new Promise((r) => setTimeout(r, 20));
    await stop();
    const text = await scrape();
    expect(text).toMatch(/burrow_job_runs_total\{job="test.ok",result="ok"\} 1/);
    expect(text).toMatch(/burrow_job_runs_total\{job="test.fails",result="failed"\} 1/);
  });

  it("counts payment notifies by result and orders by state", async () => {
    const u = await t.register();
    const r = await t.api<{ trade_id: string; amount: number }>("POST", "/user/order", {
      token: u.token,
      body: { pay_method: 2, type: 1, amount: 1000 },
    });
    const keys = gatewayKeys(t.ctx.config);
    const params: Record<string, string> = {
      pid: keys.pid,
      trade_no: `GW-metrics-${Date.now()}`,
      out_trade_no: r.body.data.trade_id,
      type: "alipay",
      name: "test",
      money: fenToYuan(r.body.data.amount),
      trade_status: "TRADE_SUCCESS",
    };
    const signed = new URLSearchParams({ ...params, sign: epaySign(params, keys.key), sign_type: "MD5" });
    for (let i = 0; i < 2; i++) await get(`/api/pay/epay/notify?${signed}`);
    await get(`/api/pay/epay/notify?${new URLSearchParams({ ...params, sign: "bad", sign_type: "MD5" })}`);
    const text = await scrape();
    expect(text).toMatch(/burrow_payment_notifies_total\{result="paid"\} 1/);
    expect(text).toMatch(/burrow_payment_notifies_total\{result="duplicate"\} 1/);
    expect(text).toMatch(/burrow_payment_notifies_total\{result="refused"\} 1/);
    expect(text).toMatch(/burrow_orders\{state="paid"\} [1-9]/);
    expect(text).toMatch(/burrow_orders\{state="awaiting"\} \d+/);
  });
});
