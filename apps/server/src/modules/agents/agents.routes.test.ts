import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { AdminNodeDetail, AdminNodeRow, NodePollResult, NodeSetup } from "@burrow/contract";
import type { StreamLine } from "@burrow/frp-decision";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { listen } from "../../../test/sim-env";
import { frpRuntime } from "../frp/frp.routes";
import { agentHub } from "./agents.service";

const BUNDLE = path.join(os.tmpdir(), `burrow-agent-${process.pid}.mjs`);
let t: TestApp;
let admin: string;
let base: string;
type Node = Awaited<ReturnType<typeof createTestNode>>;
let a: Node;
let b: Node;
const cred = (n: Node) => `${n.node_id}.${n.plugin_secret}`;

beforeAll(async () => {
  fs.writeFileSync(BUNDLE, "// the agent bundle\n");
  t = await createTestApp({ PUBLIC_URL: "https://console.example.com", AGENT_BUNDLE: BUNDLE });
  admin = await t.adminToken();
  a = await createTestNode(t, { agent_mode: 1 });
  b = await createTestNode(t);
  base = await listen(t);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(BUNDLE, { force: true });
});

/**
 * Opens a node's stream over real HTTP (a connection of its own, no keep-alive pool); next()
 * waits for the next line matching `pick`.
 */
async function openStream(credential: string) {
  const req = http.get(`${base}/api/agent/stream`, {
    agent: false,
    headers: { authorization: `Bearer ${credential}` },
  });
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    req.on("response", resolve).on("error", reject),
  );
  res.setEncoding("utf8");
  let buf = "";
  let ended = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  res.on("data", (chunk: string) => {
    buf += chunk;
    wake();
  });
  res.on("close", () => {
    ended = true;
    wake();
  });
  const next = async (pick: (l: StreamLine) => boolean, ms = 1000): Promise<StreamLine> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const nl = buf.indexOf("\n");
      if (nl >= 0) {
        const line = JSON.parse(buf.slice(0, nl)) as StreamLine;
        buf = buf.slice(nl + 1);
        if (pick(line)) return line;
        continue;
      }
      if (ended) throw new Error("stream ended");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no such line in time");
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        waiters.add(done);
      });
    }
  };
  return { status: res.statusCode, type: String(res.headers["content-type"]), next, close: () => req.destroy() };
}

const post = (url: string, credential: string, body: unknown) =>
  t.api<{ acked: number; user: unknown }>("POST", url, { headers: { authorization: `Bearer ${credential}` }, body });

describe("the node agent's credential", () => {
  it("refuses a wrong secret, an unknown node, another node's secret and a console session", async () => {
    for (const c of [
      `${a.node_id}.wrong${a.plugin_secret.slice(5)}`,
      `999999.${a.plugin_secret}`,
      `${a.node_id}.${b.plugin_secret}`,
    ]) {
      const r = await post("/agent/lookup", c, { uid: 1 });
      expect(r.status, c).toBe(401);
      expect(r.body.code).toBe(30001);
    }
    const res = await openStream(`${b.node_id}.x${a.plugin_secret}`);
    expect(res.status).toBe(401);
    res.close();
    const session = await t.api("POST", "/agent/events", { token: admin, body: { stream: "s", events: [] } });
    expect(session.status).toBe(403);
    expect(session.body.code).toBe(30004);
    // And the node's credential reaches nothing else.
    const other = await t.api("GET", "/user/tun", { headers: { authorization: `Bearer ${cred(a)}` } });
    expect(other.status).toBe(403);
  });
});

describe("GET /api/agent/stream", () => {
  it("starts with a snapshot of exactly this node's customers, then sends a lock within a second", async () => {
    const mine = await registerWithPlan(t);
    const tun = await createTestTunnel(t, mine.token, { node_id: a.node_id });
    const elsewhere = await registerWithPlan(t);
    await createTestTunnel(t, elsewhere.token, { node_id: b.node_id });
    const s = await openStream(cred(a));
    expect(s.type).toContain("application/x-ndjson");
    const snap = await s.next(() => true);
    if (snap.type !== "snapshot") throw new Error(`first line ${snap.type}`);
    expect(snap.node.node_id).toBe(a.node_id);
    expect(snap.users.map((u) => u.uid)).toEqual([mine.uid]);
    expect(snap.users[0].tunnels.map((x) => x.tun_id)).toEqual([tun.tun_id]);

    const lock = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: tun.tun_id, status: 3, banned_reason: "abuse" },
    });
    expect(lock.body).toMatchObject({ code: "SUCCESS" });
    // from the lock being made (its answer: committed), not from the request (the operator's own round trip)
    const started = Date.now();
    const line = await s.next((l) => l.type === "user" && l.uid === mine.uid, 1000);
    if (line.type !== "user" || !line.user) throw new Error("no user entry");
    expect(line.user.tunnels.find((x) => x.tun_id === tun.tun_id)?.status).toBe(3);
    expect(Date.now() - started).toBeLessThan(1000);

    // Another node's customer changing sends this node nothing; its own customer's deletion forgets them.
    await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: elsewhere.uid, status: -1, ban_reason: "x" },
    });
    await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: tun.tun_id, status: -1 } });
    const gone = await s.next((l) => l.type === "user", 1000);
    expect(gone).toEqual({ type: "user", uid: mine.uid, user: null });
    s.close();
  });

  it("keeps at most maxStreams streams per node: a new one closes the oldest", async () => {
    const hub = agentHub(t.ctx);
    hub.limits.maxStreams = 2;
    try {
      const streams = [];
      for (let i = 0; i < 3; i++) {
        const s = await openStream(cred(b));
        await s.next((l) => l.type === "snapshot");
        streams.push(s);
      }
      expect(hub.count(b.node_id)).toBe(2);
      await expect(streams[0].next(() => true)).rejects.toThrow("stream ended");
      for (const s of streams) s.close();
    } finally {
      hub.limits.maxStreams = 4;
    }
  });
});

describe("POST /api/agent/lookup", () => {
  it("answers a customer the copy has never seen for the token the client presented, and null for nobody", async () => {
    const u = await registerWithPlan(t);
    const { frp_token } = await t.db
      .selectFrom("users")
      .select("frp_token")
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    const r = await post("/agent/lookup", cred(a), { uid: u.uid, token: frp_token });
    expect(r.body).toMatchObject({ code: "SUCCESS", data: { user: { uid: u.uid, active: true, tunnels: [] } } });
    const none = await post("/agent/lookup", cred(a), { uid: 99_999_999, token: frp_token });
    expect(none.body).toMatchObject({ code: "SUCCESS", data: { user: null } });
    const bad = await post("/agent/lookup", cred(a), { uid: "x", token: frp_token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 10000, data: { field: "uid" } });
    const noToken = await post("/agent/lookup", cred(a), { uid: u.uid });
    expect(noToken.body).toMatchObject({ code: 10000, data: { field: "token" } });
  });

  it("tells a node nothing of a customer whose token it was not shown (no harvesting tokens by uid)", async () => {
    const u = await registerWithPlan(t);
    const r = await post("/agent/lookup", cred(a), { uid: u.uid, token: "0".repeat(32) });
    expect(r.body).toMatchObject({ code: "SUCCESS", data: { user: null } });
    expect(JSON.stringify(r.body)).not.toContain("frp");
  });
});

describe("POST /api/agent/events", () => {
  const conns = (tunId: number) =>
    t.db.selectFrom("tunnel_conns").select("conn_count").where("tun_id", "=", tunId).execute();
  const row = (tunId: number) =>
    t.db
      .selectFrom("tunnels")
      .select(["status", "run_id", "stale_closes"])
      .where("tun_id", "=", tunId)
      .executeTakeFirstOrThrow();

  it("applies each event once, in seq order, under a resend and under two concurrent posts", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const stream = `journal-${Date.now()}`;
    const at = Date.now();
    const events = [
      { seq: 1, at, kind: "hold", data: { tun_id: tun.tun_id, uid: u.uid, run_id: "run-1", stale_closes: 0 } },
      { seq: 2, at, kind: "hold", data: { tun_id: tun.tun_id, uid: u.uid, run_id: "run-1", stale_closes: 1 } },
      {
        seq: 3,
        at,
        kind: "conn",
        data: {
          tun_id: tun.tun_id,
          uid: u.uid,
          proxy_type: "tcp",
          remote_addr: "203.0.113.9:5000",
          ip: "203.0.113.9",
          at,
        },
      },
    ];
    const [x, y] = await Promise.all([
      post("/agent/events", cred(a), { stream, events }),
      post("/agent/events", cred(a), { stream, events }),
    ]);
    expect([x.body, y.body]).toEqual([
      expect.objectContaining({ code: "SUCCESS" }),
      expect.objectContaining({ code: "SUCCESS" }),
    ]);
    expect(Math.max(x.body.data.acked, y.body.data.acked)).toBe(3);
    // Two opens by one session: held, one CloseProxy of the earlier proxy still to come (not two, not zero).
    expect(await row(tun.tun_id)).toMatchObject({ status: 1, run_id: "run-1", stale_closes: 1 });
    const resend = await post("/agent/events", cred(a), { stream, events });
    expect(resend.body.data.acked).toBe(3);
    expect(await row(tun.tun_id)).toMatchObject({ stale_closes: 1 });
    await frpRuntime(t.ctx).writer.flush();
    expect((await conns(tun.tun_id)).reduce((n, r) => n + r.conn_count, 0)).toBe(1);

    const release = [4, 5].map((seq) => ({
      seq,
      at,
      kind: "release",
      data: { tun_id: tun.tun_id, uid: u.uid, run_id: "run-1", announce: false },
    }));
    await post("/agent/events", cred(a), { stream, events: release });
    await post("/agent/events", cred(a), { stream, events: release });
    expect(await row(tun.tun_id)).toMatchObject({ status: 2, run_id: null, stale_closes: 0 });
  });

  it("hands the doctor's decisions and logins to the frp writer once, however often they are sent", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const at = Date.now();
    const events = [
      {
        seq: 1,
        at,
        kind: "decision",
        data: { tun_id: tun.tun_id, uid: u.uid, kind: "proxy_ok", reason: "", count: 3, first: at, last: at },
      },
      { seq: 2, at, kind: "login", data: { uid: u.uid, version: "0.70.1", address: "203.0.113.7:4000" } },
    ];
    const stream = `d-${at}`;
    await Promise.all([
      post("/agent/events", cred(a), { stream, events }),
      post("/agent/events", cred(a), { stream, events }),
    ]);
    await post("/agent/events", cred(a), { stream, events });
    await frpRuntime(t.ctx).writer.flush();
    const rows = await t.db
      .selectFrom("tunnel_events")
      .select(["tun_id", "kind", "count"])
      .where("uid", "=", u.uid)
      .orderBy("kind")
      .execute();
    expect(rows.find((r) => r.kind === "proxy_ok")).toMatchObject({ tun_id: tun.tun_id, count: 3 });
    expect(rows.filter((r) => r.kind === "login_ok").reduce((n, r) => n + Number(r.count), 0)).toBe(1);
  });

  it("ignores events about another node's tunnel", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: b.node_id });
    const events = [
      {
        seq: 1,
        at: Date.now(),
        kind: "hold",
        data: { tun_id: tun.tun_id, uid: u.uid, run_id: "evil", stale_closes: 0 },
      },
    ];
    const r = await post("/agent/events", cred(a), { stream: `j-${Date.now()}`, events });
    expect(r.body.data.acked).toBe(1);
    expect(await row(tun.tun_id)).toMatchObject({ status: 2, run_id: null });
  });

  it("bills a counters read once, however often it is sent", async () => {
    const u = await registerWithPlan(t);
    const tun = await createTestTunnel(t, u.token, { node_id: a.node_id });
    const name = `u_${u.uid}.t_${tun.tun_id}`;
    const info = {
      version: "0.70.1",
      bindPort: 7000,
      curConns: 0,
      clientCounts: 1,
      totalTrafficIn: 0,
      totalTrafficOut: 0,
      proxyTypeCount: { tcp: 1 },
    };
    const stat = (bytes: number) => ({
      name,
      type: "tcp",
      todayIn: bytes,
      todayOut: bytes,
      curConns: 0,
      online: true,
      clientId: "run-x",
      lastStartTime: "01-01 00:00:00",
      lastCloseTime: "",
    });
    const used = async () =>
      Number(
        (
          await t.db
            .selectFrom("subscriptions")
            .select("traffic_used")
            .where("uid", "=", u.uid)
            .where("status", "=", 1)
            .executeTakeFirstOrThrow()
        ).traffic_used,
      );
    const before = await used();
    const now = Date.now();
    const stream = `c-${now}`;
    const first = { seq: 1, at: now - 60_000, kind: "counters", data: { proxies: [stat(0)], server_info: info } };
    const second = { seq: 2, at: now, kind: "counters", data: { proxies: [stat(1000)], server_info: info } };
    await post("/agent/events", cred(a), { stream, events: [first] });
    const both = await Promise.all([
      post("/agent/events", cred(a), { stream, events: [first, second] }),
      post("/agent/events", cred(a), { stream, events: [first, second] }),
    ]);
    for (const r of both) expect(r.body.code).toBe("SUCCESS");
    await post("/agent/events", cred(a), { stream, events: [first, second] });
    expect((await used()) - before).toBe(2000);
    const rt = await t.db
      .selectFrom("node_runtime")
      .select(["agent_seen_at", "last_poll_at"])
      .where("node_id", "=", a.node_id)
      .executeTakeFirstOrThrow();
    expect(rt.agent_seen_at).not.toBeNull();
  });

  it("refuses a batch beyond its bounds, naming the field, applying nothing", async () => {
    const stream = `b-${Date.now()}`;
    const grace = (seq: number) => ({
      seq,
      at: Date.now(),
      kind: "grace",
      data: { state: "entered", policy: "refuse" },
    });
    const many = Array.from({ length: 501 }, (_, i) => grace(i + 1));
    const big = await post("/agent/events", cred(a), { stream, events: many });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 10000, data: { field: "events" } });
    const bad = await post("/agent/events", cred(a), {
      stream,
      events: [grace(1), { ...grace(2), data: { state: "nope" } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 10000, data: { field: "events.1.data.state" } });
    const cursor = await t.db.selectFrom("agent_cursors").selectAll().where("stream", "=", stream).executeTakeFirst();
    expect(cursor).toBeUndefined();
    const ok = await post("/agent/events", cred(a), { stream, events: [grace(1)] });
    // Applied: the node list shows the grace (below).
    expect(ok.body.data.acked).toBe(1);
  });
});

describe("agent-mode nodes", () => {
  it("frps.toml points the plugin at the agent on loopback, the dashboard stays on loopback, the installer names PUBLIC_URL", async () => {
    const r = await t.api<NodeSetup>("GET", "/super/node/setup", {
      token: admin,
      query: { node_id: a.node_id },
      headers: { host: "evil.example.org" },
    });
    const setup = r.body.data;
    expect(setup.agent_mode).toBe(1);
    expect(setup.frps_toml).toContain('addr = "127.0.0.1:7300"');
    expect(setup.frps_toml).toContain('path = "/frp/plugin"');
    expect(setup.frps_toml).toContain('webServer.addr = "127.0.0.1"');
    expect(setup.frps_toml).not.toContain("/api/frp/plugin/");
    const line = setup.agent_install ?? "";
    expect(line).toContain("curl -fsSL 'https://console.example.com/download/agent/burrow-agent.mjs'");
    expect(line).toContain("'CONSOLE_URL=https://console.example.com'");
    expect(line).toContain(`'NODE_ID=${a.node_id}'`);
    expect(line).toContain(`'NODE_SECRET=${a.plugin_secret}'`);
    expect(line).toContain("/etc/burrow-agent.env");
    expect(line).toContain("'Restart=always'");
    expect(line).not.toContain("evil.example.org");
    // A direct-mode node keeps the console's plugin URL.
    const direct = await t.api<NodeSetup>("GET", "/super/node/setup", { token: admin, query: { node_id: b.node_id } });
    expect(direct.body.data.frps_toml).toContain(`/api/frp/plugin/${b.node_id}/`);

    // Without PUBLIC_URL there is no installer, whatever Host the operator's browser sent.
    const config = t.ctx.config as { PUBLIC_URL?: string };
    const saved = config.PUBLIC_URL;
    config.PUBLIC_URL = undefined;
    try {
      const none = await t.api<NodeSetup>("GET", "/super/node/setup", {
        token: admin,
        query: { node_id: a.node_id },
        headers: { host: "console.example.net" },
      });
      expect(none.body.data.agent_install).toBeNull();
      expect(none.body.data.agent_missing).toContain("PUBLIC_URL");
    } finally {
      config.PUBLIC_URL = saved;
    }
  });

  it("serves the agent's bundle when it was built, and a clear 404 when not", async () => {
    const ok = await t.app.inject({ method: "GET", url: "/download/agent/burrow-agent.mjs" });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("// the agent bundle\n");
    fs.rmSync(BUNDLE);
    try {
      const missing = await t.app.inject({ method: "GET", url: "/download/agent/burrow-agent.mjs" });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().msg).toContain("节点代理程序尚未构建");
    } finally {
      fs.writeFileSync(BUNDLE, "// the agent bundle\n");
    }
  });

  it("the poller does not read an agent-mode node's dashboard over the network; the operator switches the mode", async () => {
    let hits = 0;
    const dash = http.createServer((_req, res) => {
      hits++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => dash.listen(0, "127.0.0.1", resolve));
    const api_addr = `http://127.0.0.1:${(dash.address() as AddressInfo).port}`;
    try {
      const n = await createTestNode(t, { api_addr, agent_mode: 1 });
      const silent = await t.api<NodePollResult>("POST", "/super/node/poll", {
        token: admin,
        body: { node_id: n.node_id },
      });
      expect(silent.body.data).toMatchObject({ status: 2, error: expect.stringContaining("节点代理失联") });
      expect(hits).toBe(0);
      // The agent gets in touch: the next poll marks the node online again, still without the network.
      await post("/agent/lookup", cred(n), { uid: 1, token: "x" });
      const back = await t.api<NodePollResult>("POST", "/super/node/poll", {
        token: admin,
        body: { node_id: n.node_id },
      });
      expect(back.body.data).toMatchObject({ status: 1, error: null });
      expect(hits).toBe(0);
      const off = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
        token: admin,
        body: { node_id: n.node_id, agent_mode: 0 },
      });
      expect(off.body.data.agent_mode).toBe(0);
      await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: n.node_id } });
      expect(hits).toBeGreaterThan(0);
      const bad = await t.api("PATCH", "/super/node", { token: admin, body: { node_id: n.node_id, agent_mode: 2 } });
      expect(bad.body).toMatchObject({ code: 10000, data: { field: "agent_mode" } });
    } finally {
      dash.close();
    }
  });

  it("the node list shows the agent's last contact and grace", async () => {
    const r = await t.api<{ list: AdminNodeRow[] }>("GET", "/super/node", { token: admin, query: { size: 100 } });
    const row = r.body.data.list.find((n) => n.node_id === a.node_id);
    expect(row?.agent_mode).toBe(1);
    expect(row?.runtime.agent_seen_at).not.toBeNull();
    expect(row?.runtime.agent_grace).toBe("entered");
  });
});
