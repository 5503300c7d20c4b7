import type { TunnelDetail, TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { noon, pollerSuite, today } from "../../../test/poll-fixtures";
import { frpcFor } from "../../../test/sim-env";
import { frpRuntime } from "../frp/frp.routes";
import { pollNode } from "../frp/poll-node";

/*
 * An xtcp tunnel's stcp fallback ("t_<id>_stcp", docs/secret-tunnels.md): frpc serves it beside
 * the xtcp proxy from the same frpc.toml; NewProxy checks it like the tunnel's own proxy (owner,
 * secret, type, the one session holding the tunnel); the tunnel is connected while either is up,
 * billed for the bytes relayed through it, and 访客防护 checks its visitors.
 */

const suite = pollerSuite();
const { simNode, tunnel, used, days } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

type Node = { node_id: number; plugin_secret: string };

async function xtcpCustomer(nodeId: number) {
  const u = await t.register();
  await setPlan(t, u.uid, {});
  const xtcp: TunnelView = await createTestTunnel(t, u.token, { node_id: nodeId, protocol: "xtcp", local_port: 22 });
  const stcp: TunnelView = await createTestTunnel(t, u.token, { node_id: nodeId, protocol: "stcp", local_port: 23 });
  const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
  const key = async (tunId: number) =>
    (await t.api<TunnelDetail>("GET", `/user/tun/${tunId}`, { token: u.token })).body.data.secret_key!;
  return {
    ...u,
    xtcp,
    stcp,
    frpToken: info.body.data.frp_token,
    key: await key(xtcp.tun_id),
    stcpKey: await key(stcp.tun_id),
  };
}

async function plugin(n: Node, op: string, content: unknown) {
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const res = await fetch(`${base}/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return (await res.json()) as { reject: boolean; reject_reason?: string };
}

/** A NewProxy (or CloseProxy) as frpc sends it for `name`, logged in as `who` under `runId`. */
const proxy = (
  who: { uid: number; frpToken: string },
  name: string,
  o: { type?: string; sk?: string; runId?: string } = {},
) => ({
  user: { user: `u_${who.uid}`, metas: { token: who.frpToken }, run_id: o.runId ?? "aaaaaaaaaaaaaaaa" },
  proxy_name: `u_${who.uid}.${name}`,
  proxy_type: o.type ?? "stcp",
  sk: o.sk,
});

describe("an xtcp tunnel's stcp fallback", () => {
  it("runs beside the xtcp proxy, keeps the tunnel connected, bills its relayed bytes and shields its visitors", async () => {
    const { node, sim } = await simNode();
    const u = await xtcpCustomer(node.node_id);
    const c = await frpcFor(t, sim, u.token, node.node_id);
    await c.start();
    await frpRuntime(t.ctx).writer.flush();
    const id = u.xtcp.tun_id;
    expect(c.proxies.get(`t_${id}`)?.status).toBe("running");
    expect(c.proxies.get(`t_${id}_stcp`)?.status).toBe("running");
    expect((await tunnel(id)).status).toBe(1);

    // A visitor relayed through the fallback: frps asks NewUserConn, the bytes are the tunnel's.
    const visit = await c.visit(`t_${id}_stcp`, { bytesIn: 1000, bytesOut: 64 * 1024 });
    expect(visit.accepted).toBe(true);
    await sim.settle();
    expect((await pollNode(t.ctx, node.node_id, { now: noon(today) }))?.charged).toBe(1000 + 64 * 1024);
    expect(await tunnel(id)).toMatchObject({ traffic_in: 1000, traffic_out: 64 * 1024 });
    expect(await days(id)).toEqual([{ day: today, traffic_in: 1000, traffic_out: 64 * 1024 }]);
    expect(await used(u.uid)).toBe(1000 + 64 * 1024);

    // 访客防护 of the xtcp tunnel applies to the relayed visitors.
    const put = await t.api("PUT", `/user/tun/${id}/shield`, {
      token: u.token,
      body: { allow: [], deny: ["198.51.100.0/24"], rule_enabled: false, conns: 20, window_s: 60, ban_s: 3600 },
    });
    expect(put.body.code).toBe("SUCCESS");
    const denied = await c.visit(`t_${id}_stcp`, { remoteAddr: "198.51.100.9:40000" });
    expect(denied.accepted).toBe(false);
    expect(denied.reason).toContain("拒绝列表");
    expect((await c.visit(`t_${id}_stcp`, { remoteAddr: "203.0.113.9:40000" })).accepted).toBe(true);

    // Offline only once both proxies are closed.
    await c.stop();
    await sim.settle();
    await frpRuntime(t.ctx).writer.flush();
    expect((await tunnel(id)).status).toBe(2);
  });

  it("is checked like the tunnel's own proxy: secret, type, allowUsers, owner, a fallback only for xtcp, no port name", async () => {
    const { node } = await simNode();
    const u = await xtcpCustomer(node.node_id);
    const other = await xtcpCustomer(node.node_id);
    const id = u.xtcp.tun_id;
    const refused = async (content: unknown, reason: string) =>
      expect(await plugin(node, "NewProxy", content)).toMatchObject({
        reject: true,
        reject_reason: expect.stringContaining(reason),
      });
    await refused(proxy(u, `t_${id}_stcp`, { sk: "not-the-secret-at-all-xx" }), "密钥");
    // The xtcp tunnel's secret is not another tunnel's, even the same customer's.
    await refused(proxy(u, `t_${id}_stcp`, { sk: u.stcpKey }), "密钥");
    await refused(proxy(u, `t_${id}_stcp`, { type: "xtcp", sk: u.key }), "类型应为 stcp");
    await refused({ ...proxy(u, `t_${id}_stcp`, { sk: u.key }), allow_users: ["*"] }, "allowUsers");
    await refused({ ...proxy(u, `t_${id}_stcp`, { sk: u.key }), remote_port: 20070 }, "远程端口");
    await refused(proxy(u, `t_${u.stcp.tun_id}_stcp`, { sk: u.stcpKey }), "不是 xtcp");
    await refused(proxy(u, `t_${id}_2000`, { type: "xtcp", sk: u.key }), "不是端口范围");
    // Another customer: neither under the owner's name (its own token) nor as a name of its own.
    await refused(
      { ...proxy(other, `t_${id}_stcp`, { sk: u.key }), proxy_name: `u_${u.uid}.t_${id}_stcp` },
      "未知隧道",
    );
    await refused(proxy(other, `t_${id}_stcp`, { sk: u.key }), "不存在");
    // Nothing was held by these refusals.
    await frpRuntime(t.ctx).writer.flush();
    expect((await tunnel(id)).run_id).toBeNull();
    expect((await plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, { sk: u.key }))).reject).toBe(false);
  });

  it("lets one session hold both: another session's xtcp or fallback proxy is refused; released after both close", async () => {
    const { node } = await simNode();
    const u = await xtcpCustomer(node.node_id);
    const id = u.xtcp.tun_id;
    const a = { sk: u.key, runId: "aaaaaaaaaaaaaaaa" };
    const b = { sk: u.key, runId: "bbbbbbbbbbbbbbbb" };
    expect((await plugin(node, "NewProxy", proxy(u, `t_${id}`, { ...a, type: "xtcp" }))).reject).toBe(false);
    await frpRuntime(t.ctx).writer.flush();
    expect((await tunnel(id)).run_id).toBe(a.runId);
    const taken = await plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, b));
    expect(taken).toMatchObject({ reject: true, reject_reason: expect.stringContaining("另一个 frpc 会话") });
    expect((await plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, a))).reject).toBe(false);

    // The fallback's close leaves the hold to the xtcp proxy; the last close releases it.
    await plugin(node, "CloseProxy", proxy(u, `t_${id}_stcp`, a));
    await frpRuntime(t.ctx).writer.flush();
    expect(await tunnel(id)).toMatchObject({ run_id: a.runId, status: 1 });
    expect((await plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, b))).reject).toBe(true);
    await plugin(node, "CloseProxy", proxy(u, `t_${id}`, { ...a, type: "xtcp" }));
    await frpRuntime(t.ctx).writer.flush();
    expect(await tunnel(id)).toMatchObject({ run_id: null, status: 2 });
    // Free again: the other session may now serve it.
    expect((await plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, b))).reject).toBe(false);
  });

  it("gives the tunnel to one of two sessions asking at once, one for each proxy", async () => {
    const { node } = await simNode();
    const u = await xtcpCustomer(node.node_id);
    const id = u.xtcp.tun_id;
    const answers = await Promise.all([
      plugin(node, "NewProxy", proxy(u, `t_${id}`, { type: "xtcp", sk: u.key, runId: "cccccccccccccccc" })),
      plugin(node, "NewProxy", proxy(u, `t_${id}_stcp`, { sk: u.key, runId: "dddddddddddddddd" })),
    ]);
    expect(answers.filter((a) => !a.reject)).toHaveLength(1);
    expect(answers.find((a) => a.reject)?.reject_reason).toContain("另一个 frpc 会话");
  });
});
