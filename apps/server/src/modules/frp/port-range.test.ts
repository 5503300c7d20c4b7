import type { TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { frpRuntime } from "./frp.routes";
import { pollNode } from "./poll-node";

/*
 * A port-range tunnel through frps (the simulator) and the plugin: the frpc.toml the console
 * writes starts one proxy per port, each checked by NewProxy (its name's port in the range, that
 * port its remote port); the tunnel is connected while they are up and billed for all of them.
 */

const suite = pollerSuite();
const { simNode, tunnel, used, days } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

async function rangeCustomer(nodeId: number, start: number, end: number) {
  const u = await t.register();
  await setPlan(t, u.uid, { tunnel_peer_port_limit: 10 });
  const range = await createTestTunnel(t, u.token, {
    node_id: nodeId,
    protocol: "tcp",
    local_port: 22,
    remote_port: start,
    remote_port_end: end,
  });
  return { ...u, range };
}

const plugin = async (base: string, n: { node_id: number; plugin_secret: string }, op: string, content: unknown) => {
  const res = await fetch(`${base}/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return (await res.json()) as { reject: boolean; reject_reason?: string; content?: { remote_port?: number } };
};

describe("a port-range tunnel on frps", () => {
  it("starts one proxy per port, is connected while they are up and is billed for every one", async () => {
    const { node, sim } = await simNode();
    const u = await rangeCustomer(node.node_id, 20030, 20032);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    const names = [20030, 20031, 20032].map((p) => `t_${u.range.tun_id}_${p}`);
    for (const n of names) expect(c.proxies.get(n)?.status, n).toBe("running");
    expect((await tunnel(u.range.tun_id)).status).toBe(1);

    // Two of its proxies carry traffic in one poll: both are the tunnel's, in one day's row.
    sim.addTraffic(`u_${u.uid}.${names[0]}`, 1000, 3000);
    sim.addTraffic(`u_${u.uid}.${names[2]}`, 200, 800);
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(5000);
    expect(await tunnel(u.range.tun_id)).toMatchObject({ traffic_in: 1200, traffic_out: 3800 });
    expect(await days(u.range.tun_id)).toEqual([{ day: today, traffic_in: 1200, traffic_out: 3800 }]);
    expect(await used(u.uid)).toBe(5000);

    // Offline only once the last of its proxies is closed.
    await c.stop();
    await sim.settle();
    await frpRuntime(t.ctx).writer.flush();
    expect((await tunnel(u.range.tun_id)).status).toBe(2);
  });

  it("refuses a proxy whose name's port is outside the range, a plain name, a wrong port and a port name of a single-port tunnel", async () => {
    const { node } = await simNode();
    const u = await rangeCustomer(node.node_id, 20040, 20042);
    const single: TunnelView = await createTestTunnel(t, u.token, { node_id: node.node_id, remote_port: 20050 });
    const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
    // simNode set the app listening, as frps calls it.
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const user = { user: `u_${u.uid}`, metas: { token: info.body.data.frp_token }, run_id: "0123456789abcdef" };
    const proxy = (name: string, remote_port?: number) => ({
      user,
      proxy_name: `u_${u.uid}.${name}`,
      proxy_type: "tcp",
      ...(remote_port === undefined ? {} : { remote_port }),
    });
    const id = u.range.tun_id;
    const ok = await plugin(base, node, "NewProxy", proxy(`t_${id}_20041`, 20041));
    expect(ok.reject).toBe(false);
    expect(ok.content?.remote_port).toBe(20041);
    // No remote port sent: the name's port is set.
    expect((await plugin(base, node, "NewProxy", proxy(`t_${id}_20042`))).content?.remote_port).toBe(20042);

    const outside = await plugin(base, node, "NewProxy", proxy(`t_${id}_20043`, 20043));
    expect(outside).toMatchObject({ reject: true, reject_reason: expect.stringContaining("20040–20042") });
    const plain = await plugin(base, node, "NewProxy", proxy(`t_${id}`, 20040));
    expect(plain.reject).toBe(true);
    const wrongPort = await plugin(base, node, "NewProxy", proxy(`t_${id}_20040`, 20041));
    expect(wrongPort).toMatchObject({ reject: true, reject_reason: expect.stringContaining("应为 20040") });
    const suffixed = await plugin(base, node, "NewProxy", proxy(`t_${single.tun_id}_20050`, 20050));
    expect(suffixed).toMatchObject({ reject: true, reject_reason: expect.stringContaining("不是端口范围") });
  });

  it("lets one session serve the range: another session's proxy for another of its ports is refused", async () => {
    const { node } = await simNode();
    const u = await rangeCustomer(node.node_id, 20060, 20062);
    const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const proxy = (runId: string, port: number) => ({
      user: { user: `u_${u.uid}`, metas: { token: info.body.data.frp_token }, run_id: runId },
      proxy_name: `u_${u.uid}.t_${u.range.tun_id}_${port}`,
      proxy_type: "tcp",
      remote_port: port,
    });
    expect((await plugin(base, node, "NewProxy", proxy("aaaaaaaaaaaaaaaa", 20060))).reject).toBe(false);
    await frpRuntime(t.ctx).writer.flush();
    expect((await plugin(base, node, "NewProxy", proxy("aaaaaaaaaaaaaaaa", 20061))).reject).toBe(false);
    const other = await plugin(base, node, "NewProxy", proxy("bbbbbbbbbbbbbbbb", 20062));
    expect(other).toMatchObject({ reject: true, reject_reason: expect.stringContaining("另一个 frpc 会话") });
  });
});
