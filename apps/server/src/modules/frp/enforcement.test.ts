import type { Paged, TunnelEventRow, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestTunnel, registerWithPlan, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { frpcFor, type SimNode, startSimNode } from "../../../test/sim-env";
import { shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { frpRuntime } from "./frp.routes";
import { pollNode } from "./poll-node";

let t: TestApp;
let admin: string;
const sims: SimNode[] = [];

beforeAll(async () => {
  t = await createTestApp();
  // Tunnel mechanics, not domain ownership (modules/domains tests that).
  openDomains(t);
  admin = await t.adminToken();
});
afterAll(async () => {
  for (const s of sims) await s.sim.stop();
  await t.close();
});

const noon = (plusMs = 0) => new Date(shanghaiDayStart(shanghaiDate()).getTime() + 12 * 3600_000 + plusMs);
const flush = () => frpRuntime(t.ctx).writer.flush();

async function simNode() {
  const s = await startSimNode(t, admin);
  sims.push(s);
  return s;
}

/** A customer with two tcp tunnels on the node, and two frpc running the same generated config. */
async function twoSessions(plan: Parameters<typeof setPlan>[2] = {}) {
  const s = await simNode();
  const u = await t.register();
  await setPlan(t, u.uid, plan);
  const ssh = await createTestTunnel(t, u.token, { node_id: s.node.node_id, tun_name: "ssh" });
  const web = await createTestTunnel(t, u.token, { node_id: s.node.node_id, tun_name: "web" });
  const holder = await frpcFor(t, s.sim, u.token, s.node.node_id);
  await holder.start();
  await flush();
  const twin = await frpcFor(t, s.sim, u.token, s.node.node_id);
  await twin.start();
  await flush();
  return { ...s, u, ssh, web, holder, twin };
}

const row = (id: number) =>
  t.db.selectFrom("tunnels").select(["status", "run_id"]).where("tun_id", "=", id).executeTakeFirstOrThrow();

describe("who holds a proxy", () => {
  it("records the session frps registered, not the last NewProxy allowed (same config started twice)", async () => {
    const x = await twoSessions();
    // The plugin allowed the twin's NewProxy; frps refused it: the name was taken.
    expect(x.twin.proxies.get(`t_${x.ssh.tun_id}`)).toMatchObject({ status: "start error" });
    expect(x.twin.proxies.get(`t_${x.ssh.tun_id}`)?.error).toContain("already exists");
    expect(await row(x.ssh.tun_id)).toMatchObject({ status: 1, run_id: x.holder.session?.runId });
    await x.holder.stop();
    await x.twin.stop();
  });

  for (const [what, block] of [
    [
      "a lock",
      (x: Awaited<ReturnType<typeof twoSessions>>) =>
        t.api("PATCH", "/super/tun", {
          token: admin,
          body: { tun_id: x.ssh.tun_id, status: 3, banned_reason: "钓鱼" },
        }),
    ],
    [
      "a delete",
      (x: Awaited<ReturnType<typeof twoSessions>>) =>
        t.api("DELETE", "/user/tun", { token: x.u.token, body: { tun_id: x.ssh.tun_id } }),
    ],
    [
      "turning the tunnel off",
      (x: Awaited<ReturnType<typeof twoSessions>>) =>
        t.api("PATCH", "/user/tun", { token: x.u.token, body: { tun_id: x.ssh.tun_id, enabled: false } }),
    ],
    [
      "a ban",
      (x: Awaited<ReturnType<typeof twoSessions>>) =>
        t.api("PATCH", "/super/user/info", { token: admin, body: { uid: x.u.uid, status: -1, ban_reason: "滥用" } }),
    ],
    [
      "a smaller plan (tunnel_limit 1: the newer tunnel is over it)",
      (x: Awaited<ReturnType<typeof twoSessions>>) => setPlan(t, x.u.uid, { tunnel_limit: 1 }),
    ],
    [
      "the plan expiring",
      (x: Awaited<ReturnType<typeof twoSessions>>) =>
        setPlan(t, x.u.uid, { end_at: new Date(Date.now() - 1000).toISOString() }),
    ],
  ] as const) {
    it(`refuses the real holder's heartbeat, work and visitor connections after ${what}`, async () => {
      const x = await twoSessions();
      expect(await x.holder.heartbeat()).toBe(true);
      const r = await block(x);
      if (typeof r === "object") expect(r.status).toBe(200);
      // Another tunnel of the same session is refused too: the session is what gets cut.
      const visit = await x.holder.visit(`t_${x.web.tun_id}`, { bytesIn: 1, bytesOut: 1 });
      expect(visit.accepted).toBe(false);
      expect(await x.holder.session?.newWorkConn()).toBe(false);
      // Every session of the customer on the node, whichever frps gave the proxy.
      expect(await x.twin.heartbeat()).toBe(false);
      expect(await x.holder.heartbeat()).toBe(false);
      await x.sim.settle();
      await x.holder.stop();
      await x.twin.stop();
    });
  }

  it("releases the hold when frps reports the proxy gone (poller), so the other sessions work again", async () => {
    const x = await twoSessions();
    await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: x.ssh.tun_id, status: 3, banned_reason: "x" } });
    expect(await x.twin.heartbeat()).toBe(false);
    // The holder crashes without CloseProxy; frps drops its proxies; the poller sees them gone.
    await x.sim.restart();
    await pollNode(t.ctx, x.node.node_id, { now: noon() });
    expect(await row(x.ssh.tun_id)).toMatchObject({ status: 3, run_id: null });
    await x.twin.reconnect();
    const hb = await x.twin.heartbeat();
    expect([hb, x.twin.lastError, (await row(x.ssh.tun_id)).run_id]).toEqual([true, null, null]);
    expect(x.twin.proxies.get(`t_${x.ssh.tun_id}`)).toMatchObject({ status: "start error" });
    await x.holder.stop();
    await x.twin.stop();
  });
});

describe("deleted tunnels frps still holds", () => {
  it("keep counting toward tunnel_limit and keep their port until frps lets go", async () => {
    const x = await twoSessions({ tunnel_limit: 2 });
    await x.twin.stop();
    const port = x.ssh.remote_port;
    expect((await t.api("DELETE", "/user/tun", { token: x.u.token, body: { tun_id: x.ssh.tun_id } })).status).toBe(200);
    // Delete–recreate cannot run more tunnels than the plan allows while the old proxy is up.
    const again = await t.api<TunnelView>("POST", "/user/tun", {
      token: x.u.token,
      body: { tun_name: "ssh2", protocol: "tcp", local_port: 22, node_id: x.node.node_id },
    });
    expect(again.status).toBe(403);
    expect(JSON.stringify(again.body)).toContain("tunnel_limit");
    // Nor can another customer take its port.
    const other = await registerWithPlan(t);
    const taken = await t.api("POST", "/user/tun", {
      token: other.token,
      body: { tun_name: "p", protocol: "tcp", local_port: 22, node_id: x.node.node_id, remote_port: port },
    });
    expect(taken.status).not.toBe(200);
    // The holder is cut at its next heartbeat; frps closes the proxy (CloseProxy).
    expect(await x.holder.heartbeat()).toBe(false);
    await x.sim.settle();
    await flush();
    expect(await row(x.ssh.tun_id)).toMatchObject({ status: -1, run_id: null });
    const now = await t.api<TunnelView>("POST", "/user/tun", {
      token: other.token,
      body: { tun_name: "p", protocol: "tcp", local_port: 22, node_id: x.node.node_id, remote_port: port },
    });
    expect(now.status).toBe(200);
    await x.holder.stop();
  });

  it("keep their domains reserved until frps lets go", async () => {
    const s = await simNode();
    const u = await registerWithPlan(t);
    const web = await createTestTunnel(t, u.token, {
      node_id: s.node.node_id,
      protocol: "http",
      local_port: 80,
      custom_domains: [`held${u.uid}.example.com`],
    });
    const c = await frpcFor(t, s.sim, u.token, s.node.node_id);
    await c.start();
    await flush();
    await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: web.tun_id } });
    const other = await registerWithPlan(t);
    const body = {
      tun_name: "w",
      protocol: "http",
      local_port: 80,
      node_id: s.node.node_id,
      custom_domains: [`held${u.uid}.example.com`],
    };
    expect((await t.api("POST", "/user/tun", { token: other.token, body })).status).not.toBe(200);
    await c.stop();
    await s.sim.settle();
    await flush();
    expect((await t.api("POST", "/user/tun", { token: other.token, body })).status).toBe(200);
  });
});

describe("bounded overage on a connection that never closes", () => {
  const MB = 1024 * 1024;
  const RATE = 125_000; // 1 Mbit/s, the plan's bandwidth
  const POLL_S = 30;
  const HEARTBEAT_S = 30;

  /** A clock near now (the kick's safety expiry is checked against the real clock), away from Shanghai midnight. */
  function base(): number {
    const now = Date.now();
    const msOfDay = (now + 8 * 3600_000) % 86_400_000;
    return msOfDay < 600_000 || msOfDay > 86_400_000 - 600_000 ? now + 1_200_000 : now;
  }

  async function longConnection(leftBytes: number) {
    const s = await simNode();
    const u = await t.register();
    await setPlan(t, u.uid, { traffic: 1, used: 1024 * MB - leftBytes, bandwidth: 1 });
    const ssh = await createTestTunnel(t, u.token, { node_id: s.node.node_id, tun_name: "ssh" });
    const c = await frpcFor(t, s.sim, u.token, s.node.node_id);
    await c.start();
    await flush();
    const conn = await c.visit(`t_${ssh.tun_id}`, { hold: true });
    expect(conn.accepted).toBe(true);
    return { ...s, u, ssh, c, conn };
  }

  const used = async (uid: number) =>
    Number(
      (
        await t.db
          .selectFrom("subscriptions")
          .select("traffic_used")
          .where("uid", "=", uid)
          .where("status", "in", [1, 2])
          .executeTakeFirstOrThrow()
      ).traffic_used,
    );

  it(`stops it within bandwidth × (poll + heartbeat interval) + 1 s of the quota`, async () => {
    const left = 20 * MB;
    const x = await longConnection(left);
    const t0 = base();
    let kickedAt = -1;
    for (let k = 0; k < 20 && kickedAt < 0; k++) {
      await pollNode(t.ctx, x.node.node_id, { now: new Date(t0 + k * POLL_S * 1000) });
      if (!(await x.c.heartbeat())) kickedAt = k;
      // frps counts nothing while the connection is open: it carries bytes at full rate meanwhile.
      else x.conn.transfer(RATE * POLL_S, 0);
    }
    expect(kickedAt).toBeGreaterThan(0);
    expect(x.c.lastError).toContain("剩余流量不足");
    // frpc dropped the session: frps closed the proxy and counted the connection.
    await x.sim.settle();
    await pollNode(t.ctx, x.node.node_id, { now: new Date(t0 + (kickedAt + 1) * POLL_S * 1000) });
    const overage = (await used(x.u.uid)) - 1024 * MB;
    expect(overage).toBeGreaterThan(0);
    expect(overage).toBeLessThanOrEqual(RATE * (POLL_S + HEARTBEAT_S + 1));
    // Over quota now: it cannot log in again.
    expect(await x.c.reconnect()).toBe(false);
    expect(x.c.lastError).toBe("流量已用尽");
    await x.c.stop();
  });

  it("lets the customer reconnect once the open connection is counted and quota remains", async () => {
    const x = await longConnection(20 * MB);
    const t0 = base();
    let k = 0;
    // An idle SSH session: the estimate grows with its age, the real bytes do not.
    for (; k < 20; k++) {
      await pollNode(t.ctx, x.node.node_id, { now: new Date(t0 + k * POLL_S * 1000) });
      if (!(await x.c.heartbeat())) break;
      x.conn.transfer(1000, 1000);
    }
    expect(k).toBeLessThan(20);
    await x.sim.settle();
    await pollNode(t.ctx, x.node.node_id, { now: new Date(t0 + (k + 1) * POLL_S * 1000) });
    const kicks = await t.db.selectFrom("frp_kicks").selectAll().where("uid", "=", x.u.uid).execute();
    expect(kicks).toEqual([]);
    expect(await x.c.reconnect()).toBe(true);
    expect(await x.c.heartbeat()).toBe(true);
    expect(await used(x.u.uid)).toBe(1024 * MB - 20 * MB + k * 2000);
    // 连接诊断: the poller's kick (buy traffic), the heartbeat it refused, and its lift (no fix).
    await flush();
    const doctor = await t.api<Paged<TunnelEventRow>>("GET", `/user/tun/${x.ssh.tun_id}/events`, {
      token: x.u.token,
      query: { size: 50 },
    });
    const rows = doctor.body.data.list.map((r) => [r.kind, r.fix, r.reason.slice(0, 14)]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ["poller", "traffic", "节点检测：未结算的连接可能超"],
        ["ping_refused", "traffic", "剩余流量不足以结算当前连接，"],
        ["poller", null, "节点检测：连接的流量已结算，"],
      ]),
    );
    await x.c.stop();
  });
});
