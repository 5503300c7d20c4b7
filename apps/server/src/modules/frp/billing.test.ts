import type { Flow, TunnelView, UserTraffic } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { dropPhone, type TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { addDays } from "../../shared/time";
import { frpRuntime } from "./frp.routes";
import { pollNode } from "./poll-node";

/* What a poll bills: counter growth once, across frps restarts and replaced stats entries. */

const suite = pollerSuite();
const { simNode, customerOn, tunnel, days, used, clientOn } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

describe("traffic", () => {
  it("turns counter growth into per-day rows, tunnel totals and quota, once", async () => {
    const { node, u, c } = await clientOn();
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
    const { node, sim, u, c } = await clientOn({ sim: { clock: () => new Date(clock) } });
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
    const { node, sim, u, c } = await clientOn();
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
});
