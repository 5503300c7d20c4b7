import type { ConnOverview, IllegalFlagRow, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpRuntime } from "./frp.routes";
import { pollNode } from "./poll-node";

/* What a poll enforces: quota spent, tunnel status following the dashboard, rules added later. */

const suite = pollerSuite();
const { tunnel, clientOn } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

describe("quota and control", () => {
  it("spends the quota, marks the subscription over quota, and the client's next heartbeat is refused", async () => {
    const { node, sim, u, c } = await clientOn({ plan: { traffic: 1 } });
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
    const { node, sim, u, c } = await clientOn();
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
    const { node, u, c } = await clientOn();
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
