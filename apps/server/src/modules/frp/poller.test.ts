import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  AdminNodeRow,
  ConnOverview,
  Flow,
  IllegalFlagRow,
  NodePollResult,
  Paged,
  TunnelView,
  UserTraffic,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, dropPhone, type TestApp } from "../../../test/harness";
import { frpcFor, type SimNode, startSimNode } from "../../../test/sim-env";
import { acquireLease } from "../../shared/jobs";
import { addDays, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { counterDelta } from "./counters";
import { frpRuntime } from "./frp.routes";
import { PollConflict } from "./poll-guards";
import { pollNode } from "./poll-node";
import { pollAll, pruneConnections } from "./poller";

let t: TestApp;
let admin: string;
const sims: SimNode[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  for (const s of sims) await s.sim.stop();
  await t.close();
});

const today = shanghaiDate();
/** Noon (Shanghai) of a day: far from the midnight guard. */
const noon = (day: string, plusMs = 0) => new Date(shanghaiDayStart(day).getTime() + 12 * 3600_000 + plusMs);

async function simNode(opts: Parameters<typeof startSimNode>[2] = {}) {
  const s = await startSimNode(t, admin, opts);
  sims.push(s);
  return s;
}

async function customerOn(nodeId: number, plan: Parameters<typeof setPlan>[2] = {}) {
  const u = await t.register();
  await setPlan(t, u.uid, plan);
  const tcp = await createTestTunnel(t, u.token, { node_id: nodeId, tun_name: "ssh", protocol: "tcp", local_port: 22 });
  return { ...u, tcp };
}

const tunnel = (id: number) =>
  t.db
    .selectFrom("tunnels")
    .select(["status", "traffic_in", "traffic_out", "run_id"])
    .where("tun_id", "=", id)
    .executeTakeFirstOrThrow();
const days = (id: number) =>
  t.db
    .selectFrom("tunnel_traffic")
    .select(["day", "traffic_in", "traffic_out"])
    .where("tun_id", "=", id)
    .orderBy("day")
    .execute();
const used = async (uid: number) =>
  Number(
    (
      await t.db
        .selectFrom("subscriptions")
        .select((eb) => eb.fn.sum<number>("traffic_used").as("n"))
        .where("uid", "=", uid)
        .where("status", "in", [1, 2])
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("counter arithmetic", () => {
  it("treats a counter that went back as reset", () => {
    expect(counterDelta(100, 150)).toBe(50);
    expect(counterDelta(100, 30)).toBe(30);
    expect(counterDelta(0, 0)).toBe(0);
  });
});

describe("node health", () => {
  it("marks a healthy node online (1) and records its dashboard snapshot", async () => {
    const { node } = await simNode();
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r).toMatchObject({ status: 1, error: null });
    const row = await t.db
      .selectFrom("nodes")
      .select("status")
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    const rt = await t.db
      .selectFrom("node_runtime")
      .selectAll()
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(rt).toMatchObject({ version: "0.70.1", last_error: null });
  });

  it("marks an unreachable node offline (2) and a node refusing the credentials as exception (3)", async () => {
    const down = await createTestNode(t, { api_addr: "http://127.0.0.1:9" }, admin);
    const r = await pollNode(t.ctx, down.node_id, { now: noon(today), timeoutMs: 2000 });
    expect(r?.status).toBe(2);
    expect(r?.error).toContain("无法连接");

    const { node } = await simNode();
    await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: node.node_id, api_password: "wrong-password" },
    });
    const bad = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(bad?.status).toBe(3);
    const rt = await t.db
      .selectFrom("node_runtime")
      .select("last_error")
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(rt.last_error).toContain("401");
  });

  it("polls a node on demand (POST /super/node/poll, 立即检测) and says what it found", async () => {
    const { node } = await simNode();
    const ok = await t.api<NodePollResult>("POST", "/super/node/poll", {
      token: admin,
      body: { node_id: node.node_id },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ node_id: node.node_id, status: 1, error: null, restarted: false });
    const list = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin, query: { name: node.name } });
    expect(list.body.data.list[0].runtime.last_poll_at).not.toBeNull();

    await t.api("PATCH", "/super/node", {
      token: admin,
      body: { node_id: node.node_id, api_password: "wrong-password" },
    });
    const bad = await t.api<NodePollResult>("POST", "/super/node/poll", {
      token: admin,
      body: { node_id: node.node_id },
    });
    expect(bad.body.data).toMatchObject({ status: 3 });
    expect(bad.body.data.error).toContain("401");

    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: node.node_id, status: -1 } });
    const shelved = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: node.node_id } });
    expect(shelved.status).toBe(403);
    expect((await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: 999_999 } })).status).toBe(404);
    const invalid = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: "x" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 10000, data: { field: "node_id" } });
    const u = await t.register();
    expect((await t.api("POST", "/super/node/poll", { token: u.token, body: { node_id: node.node_id } })).status).toBe(
      403,
    );
  });

  it("marks a reachable address that is not a frps dashboard as exception (3)", async () => {
    const origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const notFrps = await createTestNode(t, { api_addr: origin }, admin);
    expect((await pollNode(t.ctx, notFrps.node_id, { now: noon(today) }))?.status).toBe(3);
  });

  it("does not poll an off-shelf node", async () => {
    const { node } = await simNode();
    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: node.node_id, status: -1 } });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today) })).toBeNull();
    const results = await pollAll(t.ctx, { now: noon(today, 3_600_000) });
    expect(results.map((r) => r.node_id)).not.toContain(node.node_id);
  });

  it("reads the snake_case, text/plain dashboards of frps ≤ 0.52.0 (an exception for its version, still billed)", async () => {
    const { node, sim } = await simNode({ sim: { version: "0.52.0" } });
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 7, bytesOut: 9 });
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r).toMatchObject({ status: 3, proxies: 1, charged: 16 });
    expect(r?.error).toContain("0.52.0");
  });
});

describe("traffic", () => {
  it("turns counter growth into per-day rows, tunnel totals and quota, once", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    expect((await tunnel(u.tcp.tun_id)).status).toBe(1);
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 1000, bytesOut: 3000 });
    const r1 = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r1).toMatchObject({ proxies: 1, charged: 4000, restarted: false });
    await c.visit(name, { bytesIn: 500, bytesOut: 500 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }))?.charged).toBe(1000);
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today, 60_000) }))?.charged).toBe(0);
    expect(await days(u.tcp.tun_id)).toEqual([{ day: today, traffic_in: 1500, traffic_out: 3500 }]);
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1500, traffic_out: 3500 });
    expect(await used(u.uid)).toBe(5000);

    const view = await t.api<TunnelView>("GET", `/user/tun/${u.tcp.tun_id}`, { token: u.token });
    expect(view.body.data).toMatchObject({ today_in: 1500, today_out: 3500, traffic_in: 1500, status: 1 });
    const mine = await t.api<UserTraffic>("GET", "/user/traffic", { token: u.token });
    expect(mine.body.data.days.at(-1)).toEqual({ date: today, traffic_in: 1500, traffic_out: 3500 });
    expect(mine.body.data.tunnels).toEqual([
      { tun_id: u.tcp.tun_id, tun_name: "ssh", status: 1, traffic_in: 1500, traffic_out: 3500 },
    ]);
    expect(mine.body.data.quota).toMatchObject({ used: 5000, total: 10 * 1024 ** 3, left: 10 * 1024 ** 3 - 5000 });
    const chart = await t.api<{ days: { date: string; traffic_in: number }[] }>(
      "GET",
      `/user/tun/${u.tcp.tun_id}/traffic`,
      {
        token: u.token,
        query: { days: 3 },
      },
    );
    expect(chart.body.data.days.map((d) => d.traffic_in)).toEqual([0, 0, 1500]);
    const flow = await t.api<Flow>("GET", "/super/flow", { token: admin, query: { node_id: node.node_id } });
    expect(flow.body.data).toMatchObject({ total_in: 1500, total_out: 3500 });
    expect(flow.body.data.nodes).toEqual([
      { node_id: node.node_id, node_name: node.name, traffic_in: 1500, traffic_out: 3500 },
    ]);
    expect(flow.body.data.users.list).toEqual([{ uid: u.uid, phone: u.phone, traffic_in: 1500, traffic_out: 3500 }]);
    // An account without a phone (a third-party sign-in's) shows none, not its placeholder.
    await dropPhone(t, u.uid);
    const noPhone = await t.api<Flow>("GET", "/super/flow", { token: admin, query: { node_id: node.node_id } });
    expect(noPhone.body.data.users.list).toEqual([{ uid: u.uid, phone: "", traffic_in: 1500, traffic_out: 3500 }]);
    const other = await t.register();
    const none = await t.api<UserTraffic>("GET", "/user/traffic", { token: other.token });
    expect(none.body.data.tunnels).toEqual([]);
  });

  it("counts what a restarted frps shows as new, without counting old bytes twice", async () => {
    let clock = noon(today).getTime();
    const { node, sim } = await simNode({ sim: { clock: () => new Date(clock) } });
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 100, bytesOut: 100 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(200);
    // frps restarts; the client comes back and more than before flows: the counter does not go back.
    clock += 5_000;
    await sim.restart();
    await c.reconnect();
    await c.visit(name, { bytesIn: 300, bytesOut: 300 });
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) });
    expect(r).toMatchObject({ restarted: true, charged: 600 });
    // a plain reconnect (frps keeps the counters) is no reset
    clock += 5_000;
    await c.stop();
    await c.start();
    await c.visit(name, { bytesIn: 1, bytesOut: 1 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 60_000) })).toMatchObject({
      restarted: false,
      charged: 2,
    });
    expect(await days(u.tcp.tun_id)).toEqual([{ day: today, traffic_in: 401, traffic_out: 401 }]);
  });

  it("forgets the counters of proxies a restarted frps no longer shows, however many proxies it lists", async () => {
    let clock = noon(today).getTime();
    const { node, sim } = await simNode({ sim: { clock: () => new Date(clock) } });
    const u = await customerOn(node.node_id);
    const gone = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    const cg = await frpcFor(t, sim, gone.token, node.node_id);
    await c.start();
    await cg.start();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 100, bytesOut: 0 });
    await cg.visit(`t_${gone.tcp.tun_id}`, { bytesIn: 5, bytesOut: 0 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(105);
    // frps restarts and lists 70,000 proxies of others beside the customer's, which came back
    // (the other customer's did not): more names than one statement's bind parameters can hold
    // (SQLite 32,766, PostgreSQL 65,535).
    clock += 5_000;
    await cg.stop();
    await sim.restart();
    await c.reconnect();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 300, bytesOut: 0 });
    const others = Array.from({ length: 70_000 }, (_, i) => ({
      name: `other.p${i}`,
      todayTrafficIn: 0,
      todayTrafficOut: 0,
      curConns: 0,
      lastStartTime: "",
      lastCloseTime: "",
      status: "offline",
    }));
    sim.dashboardScript = (path) =>
      path === "/api/proxy/tcp"
        ? { body: (b) => ({ proxies: [...(b as { proxies: unknown[] }).proxies, ...others] }) }
        : undefined;
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) })).toMatchObject({
      restarted: true,
      charged: 300,
    });
    sim.dashboardScript = null;
    const rows = await t.db
      .selectFrom("proxy_counters")
      .select("proxy_name")
      .where("node_id", "=", node.node_id)
      .execute();
    expect(rows.map((r) => r.proxy_name)).toEqual([`u_${u.uid}.t_${u.tcp.tun_id}`]);
    await c.stop();
  });

  it("notices a restart from counters that went back", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 1000, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    await sim.restart();
    await c.reconnect();
    await c.visit(name, { bytesIn: 10, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) })).toMatchObject({
      restarted: true,
      charged: 10,
    });
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1010 });
  });

  it("takes a proxy's new entry after DELETE /api/proxies?status=offline for no restart: a proxy still gone keeps its counters, and its late return is billed once", async () => {
    const yesterday = addDays(today, -1);
    let clock = noon(yesterday).getTime();
    const { node, sim } = await simNode({ sim: { clock: () => new Date(clock) } });
    const [a, y, z] = [await customerOn(node.node_id), await customerOn(node.node_id), await customerOn(node.node_id)];
    const [ca, cy, cz] = [
      await frpcFor(t, sim, a.token, node.node_id),
      await frpcFor(t, sim, y.token, node.node_id),
      await frpcFor(t, sim, z.token, node.node_id),
    ];
    for (const c of [ca, cy, cz]) await c.start();
    await ca.visit(`t_${a.tcp.tun_id}`, { bytesIn: 10, bytesOut: 0 });
    await cy.visit(`t_${y.tcp.tun_id}`, { bytesIn: 20, bytesOut: 0 });
    await cz.visit(`t_${z.tcp.tun_id}`, { bytesIn: 40, bytesOut: 0 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(yesterday) }))?.charged).toBe(70);
    // Y and Z go offline and the operator clears offline proxies from frps's dashboard.
    clock += 5_000;
    await cy.stop();
    await cz.stop();
    await pollNode(t.ctx, node.node_id, { now: noon(yesterday, 30_000) });
    const { user = "", password = "" } = sim.opts.webServer ?? {};
    const cleared = await fetch(`${sim.dashboardUrl}/api/proxies?status=offline`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` },
    });
    expect(cleared.status).toBe(200);
    // Y comes back: a new stats entry (never closed) beside A's, which frps still shows as it was.
    clock += 5_000;
    await cy.start();
    await cy.visit(`t_${y.tcp.tun_id}`, { bytesIn: 3, bytesOut: 0 });
    await ca.visit(`t_${a.tcp.tun_id}`, { bytesIn: 1, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(yesterday, 60_000) })).toMatchObject({
      restarted: false,
      charged: 4,
    });
    // Z comes back after the day's last poll and carries bytes on both sides of midnight: its
    // counters, kept, say it was last seen yesterday, so the new entry's yesterday is its tail.
    clock += 5_000;
    await cz.start();
    await cz.visit(`t_${z.tcp.tun_id}`, { bytesIn: 50, bytesOut: 0 });
    sim.rollover();
    await cz.visit(`t_${z.tcp.tun_id}`, { bytesIn: 30, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today) })).toMatchObject({ restarted: false, charged: 80 });
    expect(await days(z.tcp.tun_id)).toEqual([
      { day: yesterday, traffic_in: 90, traffic_out: 0 },
      { day: today, traffic_in: 30, traffic_out: 0 },
    ]);
    expect(await days(y.tcp.tun_id)).toEqual([{ day: yesterday, traffic_in: 23, traffic_out: 0 }]);
    expect(await days(a.tcp.tun_id)).toEqual([{ day: yesterday, traffic_in: 11, traffic_out: 0 }]);
    expect(await used(z.uid)).toBe(120);
    for (const c of [ca, cy, cz]) await c.stop();
  });

  it("takes a proxy's entry listed under another type for no restart: only that entry starts again", async () => {
    let clock = noon(today).getTime();
    const { node, sim } = await simNode({ sim: { clock: () => new Date(clock) } });
    const a = await customerOn(node.node_id);
    const b = await customerOn(node.node_id);
    const ca = await frpcFor(t, sim, a.token, node.node_id);
    const cb = await frpcFor(t, sim, b.token, node.node_id);
    await ca.start();
    await cb.start();
    await ca.visit(`t_${a.tcp.tun_id}`, { bytesIn: 100, bytesOut: 0 });
    await cb.visit(`t_${b.tcp.tun_id}`, { bytesIn: 200, bytesOut: 0 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(300);
    // frps replaces a proxy's stats entry when it registers under another type (its metrics key
    // entries by name and start a new one for a new type); the simulator has no call for it.
    clock += 5_000;
    const name = `u_${b.uid}.t_${b.tcp.tun_id}`;
    const old = sim.stats.get(name);
    if (!old) throw new Error("no entry");
    sim.stats.set(name, {
      ...old,
      type: "udp",
      trafficIn: new Array(7).fill(0),
      trafficOut: new Array(7).fill(0),
      lastStartTime: sim.localTime(),
      lastCloseTime: "",
    });
    sim.addTraffic(name, 7, 0);
    await ca.visit(`t_${a.tcp.tun_id}`, { bytesIn: 1, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) })).toMatchObject({
      restarted: false,
      charged: 8,
    });
    expect(await tunnel(b.tcp.tun_id)).toMatchObject({ traffic_in: 207 });
    expect(await tunnel(a.tcp.tun_id)).toMatchObject({ traffic_in: 101 });
    await ca.stop();
    await cb.stop();
  });

  it("collects yesterday's last bytes across midnight from the 7-day history", async () => {
    const yesterday = addDays(today, -1);
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 100, bytesOut: 10 });
    await pollNode(t.ctx, node.node_id, { now: noon(yesterday) });
    await c.visit(name, { bytesIn: 50, bytesOut: 5 }); // after the last poll of the day
    sim.rollover();
    await c.visit(name, { bytesIn: 30, bytesOut: 3 });
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r?.charged).toBe(88);
    expect(await days(u.tcp.tun_id)).toEqual([
      { day: yesterday, traffic_in: 150, traffic_out: 15 },
      { day: today, traffic_in: 30, traffic_out: 3 },
    ]);
    expect(await used(u.uid)).toBe(198);
  });

  it("fills the days in between when the node was not polled for a while", async () => {
    const start = addDays(today, -3);
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 10, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(start) });
    await c.visit(name, { bytesIn: 5, bytesOut: 0 });
    sim.rollover();
    await c.visit(name, { bytesIn: 7, bytesOut: 0 });
    sim.rollover(2);
    await c.visit(name, { bytesIn: 1, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect((await days(u.tcp.tun_id)).map((d) => [d.day, d.traffic_in])).toEqual([
      [start, 15],
      [addDays(start, 1), 7],
      [today, 1],
    ]);
  });

  it("collects many proxies' tails over several polls, once each, and an old tail before a new one", async () => {
    const d0 = addDays(today, -2);
    const d1 = addDays(today, -1);
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const more = [
      await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "b" }),
      await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "c" }),
    ];
    const ids = [u.tcp.tun_id, ...more.map((x) => x.tun_id)];
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const visitAll = async (bytes: number) => {
      for (const id of ids) await c.visit(`t_${id}`, { bytesIn: bytes, bytesOut: 0 });
    };
    await visitAll(10);
    await pollNode(t.ctx, node.node_id, { now: noon(d0) });
    await visitAll(5); // after the last poll of d0
    sim.rollover();
    await visitAll(3);
    // the first poll of d1 notes three tails and collects one
    expect(await pollNode(t.ctx, node.node_id, { now: noon(d1), tailBatch: 1 })).toMatchObject({ tails: 1 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(d1, 30_000), tailBatch: 1 })).toMatchObject({
      tails: 1,
      charged: 5,
    });
    // one tail of d0 is still pending when d1 ends: it is collected before d1's own tail is noted
    await visitAll(2);
    sim.rollover();
    await visitAll(1);
    await pollNode(t.ctx, node.node_id, { now: noon(today), tailBatch: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) });
    for (const id of ids) {
      expect((await days(id)).map((d) => [d.day, d.traffic_in])).toEqual([
        [d0, 15],
        [d1, 5],
        [today, 1],
      ]);
    }
    const pending = await t.db
      .selectFrom("proxy_counters")
      .select("proxy_name")
      .where("node_id", "=", node.node_id)
      .where("tail_day", "is not", null)
      .execute();
    expect(pending).toEqual([]);
    await c.stop();
  });

  it("leaves traffic for the next poll right around midnight", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 10, bytesOut: 0 });
    const r = await pollNode(t.ctx, node.node_id, { now: new Date(shanghaiDayStart(today).getTime() + 20_000) });
    expect(r).toMatchObject({ deferred: true, charged: 0, status: 1 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(10);
  });
});

/** Rewrites one proxy's entry in /api/proxy/tcp answers. */
const patchProxy =
  (name: string, patch: Record<string, unknown>) =>
  (body: unknown): unknown => {
    const b = body as { proxies: Record<string, unknown>[] };
    return { proxies: b.proxies.map((p) => (p.name === name ? { ...p, ...patch } : p)) };
  };

describe("hostile or broken dashboards", () => {
  for (const [what, bad] of [
    ["a string", "99999"],
    ["1e300", 1e300],
    ["a negative", -1000],
    ["null", null],
  ] as const) {
    it(`bills exactly when a counter arrives once as ${what}`, async () => {
      const { node, sim } = await simNode();
      const u = await customerOn(node.node_id);
      const other = await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "other" });
      const c = await frpcFor(t, sim, u.token, node.node_id);
      await c.start();
      const name = `u_${u.uid}.t_${u.tcp.tun_id}`;
      await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1000, bytesOut: 100 });
      await c.visit(`t_${other.tun_id}`, { bytesIn: 7, bytesOut: 7 });
      expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(1114);
      await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 500, bytesOut: 50 });
      sim.dashboardScript = (path) =>
        path === "/api/proxy/tcp" ? { body: patchProxy(name, { todayTrafficIn: bad }) } : undefined;
      // Unknown this round: no credit, no reset, the other proxy's counters stay.
      expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) })).toMatchObject({
        charged: 0,
        restarted: false,
      });
      sim.dashboardScript = null;
      expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 60_000) })).toMatchObject({
        charged: 550,
        restarted: false,
      });
      expect(await days(u.tcp.tun_id)).toEqual([{ day: today, traffic_in: 1500, traffic_out: 150 }]);
      expect(await tunnel(other.tun_id)).toMatchObject({ traffic_in: 7, traffic_out: 7 });
      expect(await used(u.uid)).toBe(1664);
      await c.stop();
    });
  }

  it("ignores server totals that are not counters (no restart inferred, nothing stored)", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 100, bytesOut: 0 });
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    sim.dashboardScript = (path) =>
      path === "/api/serverinfo"
        ? { body: (b) => ({ ...(b as object), totalTrafficIn: "0", totalTrafficOut: -1, curConns: 1e300 }) }
        : undefined;
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 10, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) })).toMatchObject({
      charged: 10,
      restarted: false,
    });
    const rt = await t.db
      .selectFrom("node_runtime")
      .select(["traffic_in", "cur_conns"])
      .where("node_id", "=", node.node_id)
      .executeTakeFirstOrThrow();
    expect(Number(rt.traffic_in)).toBe(100);
    sim.dashboardScript = null;
    await c.stop();
  });

  it("refuses an increase above what the node's bandwidth carries in the elapsed time", async () => {
    const { node, sim } = await simNode({ node: { bandwidth: 1 } });
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `u_${u.uid}.t_${u.tcp.tun_id}`;
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1000, bytesOut: 0 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(1000);
    // 1 Mbit/s for 30 s is under 4 MB: 2^52 bytes is not traffic.
    sim.addTraffic(name, 2 ** 52, 0);
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }))?.charged).toBe(0);
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1000 });
    expect(await used(u.uid)).toBe(1000);
    await c.stop();
  });

  it("gives up a body past the size limit and marks the node exception (3)", async () => {
    const { node, sim } = await simNode();
    sim.dashboardScript = (path) => (path === "/api/proxy/tcp" ? { dripBytes: 40 * 1024 * 1024 } : undefined);
    const started = Date.now();
    const r = await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(r).toMatchObject({ status: 3, charged: 0 });
    expect(r?.error).toContain("超过");
    expect(Date.now() - started).toBeLessThan(5_000);
    sim.dashboardScript = null;
  });

  it("polls every node under its own deadline: a slow dashboard delays no other node", async () => {
    const slow = await simNode();
    const fast = await simNode();
    const u = await customerOn(fast.node.node_id);
    const c = await frpcFor(t, fast.sim, u.token, fast.node.node_id);
    await c.start();
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 42, bytesOut: 0 });
    // It answers after 20 s; then it drips its body for as long.
    slow.sim.dashboardScript = (path) => (path === "/api/serverinfo" ? { delayMs: 20_000 } : undefined);
    const started = Date.now();
    const results = await pollAll(t.ctx, { now: noon(today, 5 * 3600_000), deadlineMs: 1_000 });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(results.find((r) => r.node_id === fast.node.node_id)).toMatchObject({ status: 1, charged: 42 });
    const s = results.find((r) => r.node_id === slow.node.node_id);
    expect(s).toMatchObject({ status: 2 });
    expect(s?.error).toContain("超时");

    slow.sim.dashboardScript = (path) =>
      path === "/api/proxy/tcp" ? { dripBytes: 1024 * 1024, dripChunk: 10, dripIntervalMs: 50 } : undefined;
    const again = Date.now();
    const r = await pollNode(t.ctx, slow.node.node_id, { now: noon(today, 6 * 3600_000), deadlineMs: 1_000 });
    expect(r).toMatchObject({ status: 2 });
    expect(Date.now() - again).toBeLessThan(5_000);
    slow.sim.dashboardScript = null;
    await c.stop();
  });

  it("flags a node whose counters roll over away from Shanghai midnight and bills it once", async () => {
    const yesterday = addDays(today, -1);
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    const name = `t_${u.tcp.tun_id}`;
    await c.visit(name, { bytesIn: 100, bytesOut: 0 });
    expect((await pollNode(t.ctx, node.node_id, { now: noon(yesterday) }))?.charged).toBe(100);
    // frps (in another timezone) rotates in the afternoon, Shanghai time.
    await c.visit(name, { bytesIn: 50, bytesOut: 0 });
    sim.rollover();
    await c.visit(name, { bytesIn: 30, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(yesterday, 3 * 3600_000) })).toMatchObject({
      charged: 80,
      restarted: false,
    });
    const list = await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin, query: { name: node.name } });
    expect(list.body.data.list[0].runtime.rollover_skew_at).toBe(noon(yesterday, 3 * 3600_000).toISOString());
    // Shanghai midnight passes, frps has not rotated: its counters go on, only the growth is new.
    await c.visit(name, { bytesIn: 20, bytesOut: 0 });
    expect(await pollNode(t.ctx, node.node_id, { now: noon(today) })).toMatchObject({ charged: 20, tails: 0 });
    expect((await days(u.tcp.tun_id)).map((d) => [d.day, d.traffic_in])).toEqual([
      [yesterday, 180],
      [today, 20],
    ]);
    expect(await used(u.uid)).toBe(200);
    await c.stop();
  });
});

describe("quota and control", () => {
  it("spends the quota, marks the subscription over quota, and the client's next heartbeat is refused", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id, { traffic: 1 });
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    expect(await c.heartbeat()).toBe(true);
    sim.addTraffic(`u_${u.uid}.t_${u.tcp.tun_id}`, 700 * 1024 ** 2, 400 * 1024 ** 2);
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    const sub = await t.db
      .selectFrom("subscriptions")
      .select("status")
      .where("uid", "=", u.uid)
      .where("status", "in", [1, 2])
      .executeTakeFirstOrThrow();
    expect(sub.status).toBe(2);
    expect(await c.heartbeat()).toBe(false);
    expect(c.lastError).toBe("流量已用尽");
    await sim.settle();
    expect(c.session).toBeNull();
    expect(await c.reconnect()).toBe(false);
    expect(c.lastError).toBe("流量已用尽");
    await c.stop();
  });

  it("makes tunnel status follow the dashboard and refuses visitors of a tunnel locked meanwhile", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    // CloseProxy may never come (frps crash): the poller notices the proxy is gone.
    await sim.restart();
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: 2, run_id: null });
    await c.reconnect();
    await t.db.updateTable("tunnels").set({ status: 2 }).where("tun_id", "=", u.tcp.tun_id).execute();
    await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) });
    expect((await tunnel(u.tcp.tun_id)).status).toBe(1);

    const held = await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1, bytesOut: 1, hold: true });
    expect(held.accepted).toBe(true);
    await pollNode(t.ctx, node.node_id, { now: noon(today, 60_000) });
    await frpRuntime(t.ctx).writer.flush();
    const conns = await t.api<ConnOverview>("GET", "/super/tun/conns", {
      token: admin,
      query: { node_id: node.node_id },
    });
    expect(conns.body.data.live).toEqual([
      expect.objectContaining({
        tun_id: u.tcp.tun_id,
        cur_conns: 1,
        online: true,
        proxy_name: `u_${u.uid}.t_${u.tcp.tun_id}`,
      }),
    ]);
    expect(conns.body.data.list[0]).toMatchObject({ tun_id: u.tcp.tun_id, tun_name: "ssh" });
    held.close();

    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: u.tcp.tun_id, status: 3, banned_reason: "scan" },
    });
    const refused = await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1, bytesOut: 1 });
    expect(refused).toMatchObject({ accepted: false });
    expect(refused.reason).toContain("锁定");
    expect(await c.heartbeat()).toBe(false);
    await sim.settle();
    await frpRuntime(t.ctx).writer.flush();
    expect(await c.reconnect()).toBe(true);
    expect(c.proxies.get(`t_${u.tcp.tun_id}`)?.status).toBe("start error");
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: 3, run_id: null });
    await c.stop();
  });

  it("flags online tunnels that break a rule added later", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await t.api("POST", "/super/tun/illegal/rule", {
      token: admin,
      body: { kind: "port", value: String(u.tcp.remote_port) },
    });
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    await pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) });
    const flags = await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", {
      token: admin,
      query: { tun_id: u.tcp.tun_id },
    });
    expect(flags.body.data.total).toBe(1);
    expect(flags.body.data.list[0]).toMatchObject({ source: "rule", status: 1, tun_name: "ssh" });
    await c.stop();
  });
});

/**
 * The node's dashboard behind a proxy that deletes the node (as an operator would) when the poll
 * first asks for the proxy list, then answers as the dashboard does (the list with `status` when
 * given). `deleted()` is the deletion's answer code.
 */
async function deletedMidPoll(sim: SimNode, opts: { status?: number } = {}) {
  let deletion: Promise<unknown> | undefined;
  const server = createServer(async (req, res) => {
    const list = req.url?.startsWith("/api/proxy/");
    if (list)
      deletion ??= t
        .api("DELETE", "/super/node", { token: admin, body: { node_id: sim.node.node_id } })
        .then((r) => r.body.code);
    await deletion;
    if (list && opts.status) return void res.writeHead(opts.status).end();
    const r = await fetch(`${sim.sim.dashboardUrl}${req.url}`, {
      headers: { authorization: req.headers.authorization ?? "" },
    });
    res.writeHead(r.status, { "content-type": "application/json" }).end(await r.text());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  await t.db
    .updateTable("nodes")
    .set({ api_addr: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
    .where("node_id", "=", sim.node.node_id)
    .execute();
  return { deleted: () => deletion, close: () => new Promise((r) => server.close(r)) };
}

describe("a node deleted while it is polled", () => {
  const leftOf = async (nodeId: number) => ({
    runtime: await t.db.selectFrom("node_runtime").select("node_id").where("node_id", "=", nodeId).execute(),
    counters: await t.db.selectFrom("proxy_counters").select("proxy_name").where("node_id", "=", nodeId).execute(),
    kicks: await t.db.selectFrom("frp_kicks").select("uid").where("node_id", "=", nodeId).execute(),
  });
  const nothing = { runtime: [], counters: [], kicks: [] };

  /** A customer's deleted tunnel that frps still shows online: held until frps lets go. */
  async function heldTunnel(s: SimNode) {
    const u = await customerOn(s.node.node_id);
    const c = await frpcFor(t, s.sim, u.token, s.node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: u.tcp.tun_id } });
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: -1, run_id: expect.any(String) });
    // a kick, which the deletion drops too (forgetNode)
    const at = new Date().toISOString();
    await t.db
      .insertInto("frp_kicks")
      .values({ uid: u.uid, node_id: s.node.node_id, inflight: 1, remaining: 0, created_at: at, until: at })
      .execute();
    return { u, c };
  }

  for (const [when, at] of [
    ["at noon", noon(today)],
    // the poll that leaves traffic for later still makes status follow the dashboard
    ["a minute before midnight (traffic deferred)", new Date(shanghaiDayStart(addDays(today, 1)).getTime() - 30_000)],
  ] as const)
    it(`writes nothing back ${when}: no counters, runtime row or kick, and the held tunnel stays released`, async () => {
      const s = await simNode();
      const { u, c } = await heldTunnel(s);
      const proxy = await deletedMidPoll(s);
      expect(await pollNode(t.ctx, s.node.node_id, { now: at })).toBeNull();
      expect(await proxy.deleted()).toBe("SUCCESS");
      expect(await tunnel(u.tcp.tun_id)).toMatchObject({ status: -1, run_id: null });
      expect(await leftOf(s.node.node_id)).toEqual(nothing);
      await proxy.close();
      await c.stop();
    });

  it("records no health for it when the dashboard then fails", async () => {
    const s = await simNode();
    await pollNode(t.ctx, s.node.node_id, { now: noon(today) });
    const proxy = await deletedMidPoll(s, { status: 502 });
    expect(await pollNode(t.ctx, s.node.node_id, { now: noon(today, 30_000) })).toBeNull();
    expect(await proxy.deleted()).toBe("SUCCESS");
    expect(await leftOf(s.node.node_id)).toEqual(nothing);
    await proxy.close();
  });

  it("says 404 to an operator's poll of it", async () => {
    const s = await simNode();
    const proxy = await deletedMidPoll(s);
    const r = await t.api("POST", "/super/node/poll", { token: admin, body: { node_id: s.node.node_id } });
    expect(r.status).toBe(404);
    expect(await proxy.deleted()).toBe("SUCCESS");
    expect(await leftOf(s.node.node_id)).toEqual(nothing);
    await proxy.close();
  });
});

describe("pollAll", () => {
  it("polls each node once per lease, so several processes never poll a node twice", async () => {
    const { node } = await simNode();
    const at = noon(today, 2 * 3600_000);
    const polled = async (holder: string, plusMs: number) =>
      (await pollAll(t.ctx, { now: new Date(at.getTime() + plusMs), leaseMs: 25_000, holder })).map((r) => r.node_id);
    expect(await polled("process-a", 0)).toContain(node.node_id);
    expect(await polled("process-b", 1_000)).not.toContain(node.node_id);
    expect(await polled("process-b", 30_000)).toContain(node.node_id);
    expect(await polled("process-a", 31_000)).not.toContain(node.node_id);
    expect(
      await acquireLease(t.db, `frp-poll:${node.node_id}`, 25_000, "process-c", new Date(at.getTime() + 40_000)),
    ).toBe(false);
  });

  it("never counts bytes twice when two polls of one node overlap", async () => {
    const { node, sim } = await simNode();
    const u = await customerOn(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await pollNode(t.ctx, node.node_id, { now: noon(today) });
    await c.visit(`t_${u.tcp.tun_id}`, { bytesIn: 1000, bytesOut: 0 });
    const both = await Promise.allSettled([
      pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }),
      pollNode(t.ctx, node.node_id, { now: noon(today, 30_000) }),
    ]);
    const done = both.filter((r) => r.status === "fulfilled");
    const lost = both.filter((r) => r.status === "rejected");
    expect(done).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(PollConflict);
    expect(await tunnel(u.tcp.tun_id)).toMatchObject({ traffic_in: 1000 });
    await c.stop();
  });

  it("prunes visitor connections past the retention", async () => {
    const { node } = await simNode();
    const u = await customerOn(node.node_id);
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    await t.db
      .insertInto("tunnel_conns")
      .values({
        tun_id: u.tcp.tun_id,
        uid: u.uid,
        node_id: node.node_id,
        proxy_type: "tcp",
        remote_addr: "1.2.3.4:5",
        created_at: old,
      })
      .execute();
    expect(await pruneConnections(t.ctx, new Date(Date.now() + 7200_000))).toBeGreaterThanOrEqual(1);
    const left = await t.db.selectFrom("tunnel_conns").select("id").where("created_at", "=", old).execute();
    expect(left).toEqual([]);
  });
});
