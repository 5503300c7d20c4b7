import type { AdminNodeRow, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { addDays } from "../../shared/time";
import { pollNode } from "./poll-node";
import { pollAll } from "./poller";

/* A dashboard's answers are not trusted: bad counters, impossible increases, huge or slow bodies. */

const suite = pollerSuite();
const { simNode, customerOn, tunnel, days, used, clientOn } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
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
    const { node, sim, u, c } = await clientOn();
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
    const { node, sim, u, c } = await clientOn({ node: { bandwidth: 1 } });
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
    const { node, sim, u, c } = await clientOn();
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
