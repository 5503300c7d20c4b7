import type { AdminNodeRow, ConnOverview, Paged, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { frpcFor, type SimNode, startSimNode } from "../../../test/sim-env";
import { shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { frpRuntime } from "../frp/frp.routes";
import { pollNode } from "../frp/poll-node";

/*
 * Issue 35 §8: /admin/tun/conns "当前活跃代理" stayed empty while a tunnel was 已连接 and its node
 * showed one client and one tunnel: the live view listed only proxies with open visitor
 * connections. It follows the tunnel and node state now.
 */

let t: TestApp;
let admin: string;
let s: SimNode;

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  s = await startSimNode(t, admin);
});
afterAll(async () => {
  await s.sim.stop();
});

const noon = (plusMs = 0) => new Date(shanghaiDayStart(shanghaiDate()).getTime() + 12 * 3600_000 + plusMs);

const live = async (query: Record<string, number> = {}) => {
  const r = await t.api<ConnOverview>("GET", "/super/tun/conns", {
    token: admin,
    query: { node_id: s.node.node_id, ...query },
  });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data.live;
};
const tunnelStatus = async (tunId: number) =>
  (await t.api<Paged<TunnelView>>("GET", "/super/tun/list", { token: admin, query: { tun_id: tunId } })).body.data
    .list[0]?.status;
const nodeLoad = async () =>
  (await t.api<Paged<AdminNodeRow>>("GET", "/super/node", { token: admin })).body.data.list.find(
    (n) => n.node_id === s.node.node_id,
  )?.load;

describe("GET /super/tun/conns live", () => {
  it("lists a connected tunnel without visitors, as the tunnel list and the node's load do", async () => {
    const u = await t.register();
    await setPlan(t, u.uid, {});
    const tcp = await createTestTunnel(t, u.token, {
      node_id: s.node.node_id,
      tun_name: "ssh",
      protocol: "tcp",
      local_port: 22,
    });
    const c = await frpcFor(t, s.sim, u.token, s.node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();

    // Connected by the plugin's NewProxy, before any poll: listed under the name frpc uses.
    expect(await tunnelStatus(tcp.tun_id)).toBe(1);
    expect(await live()).toEqual([
      expect.objectContaining({ tun_id: tcp.tun_id, tun_name: "ssh", uid: u.uid, online: true, cur_conns: 0 }),
    ]);

    // After a poll: the node shows one client and one tunnel, the live view that tunnel.
    await pollNode(t.ctx, s.node.node_id, { now: noon() });
    expect(await nodeLoad()).toMatchObject({ clients: 1, proxies: 1, tunnels: 1, cur_conns: 0 });
    expect(await tunnelStatus(tcp.tun_id)).toBe(1);
    expect(await live()).toEqual([
      expect.objectContaining({
        tun_id: tcp.tun_id,
        proxy_name: `u_${u.uid}.t_${tcp.tun_id}`,
        online: true,
        cur_conns: 0,
      }),
    ]);
    expect(await live({ uid: u.uid + 1000 })).toEqual([]);

    // Gone offline: out of the live view as the tunnel shows 离线.
    await c.stop();
    await frpRuntime(t.ctx).writer.flush();
    await pollNode(t.ctx, s.node.node_id, { now: noon(30_000) });
    expect(await tunnelStatus(tcp.tun_id)).toBe(2);
    expect(await live()).toEqual([]);
  });
});
