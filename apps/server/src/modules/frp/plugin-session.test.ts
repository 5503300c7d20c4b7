import type { AdminNodeDetail, ConnOverview, ConnRow, Paged, TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { setPlan } from "../../../test/frp-fixtures";
import { ALLOW, httpProxy, loginContent, RUN_ID, tcpProxy, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";

/* A running session: limits re-checked at connect time, heartbeats, visitors, cut-offs. */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
beforeAll(() => {
  ({ t, admin, node } = suite.get());
});

describe("limits at connect time", () => {
  const closeAll = async (c: PluginCustomer) => {
    for (const p of [tcpProxy(c), httpProxy(c)])
      await plugin("CloseProxy", { user: userInfo(c), proxy_name: p.proxy_name });
    await flush();
  };

  it("re-checks tunnel_limit on NewProxy (oldest tunnels win) and kicks a session over it at the next heartbeat", async () => {
    const c = await customer();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    await flush();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    // The plan is replaced by a smaller one (expiry into a default plan, an operator's edit).
    await setPlan(t, c.uid, { bandwidth: 10, tunnel_limit: 1 });
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject).toBe(true);
    expect(ping.body.reject_reason).toContain("tunnel_limit");
    expect((await plugin("NewWorkConn", { user: userInfo(c) })).body.reject).toBe(true);
    await closeAll(c);
    // frpc logs in again: the older tunnel connects, the newer one is refused.
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    const newer = await plugin("NewProxy", httpProxy(c));
    expect(newer.body.reject).toBe(true);
    expect(newer.body.reject_reason).toContain("tunnel_limit");
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    // Turning the older one off lets the newer one run: the limit counts tunnels that can run.
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id, enabled: false } });
    await closeAll(c);
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
  });

  it("re-checks ports or domains per tunnel (tunnel_peer_port_limit)", async () => {
    const c = await customer();
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    await flush();
    await setPlan(t, c.uid, { bandwidth: 10, tunnel_peer_port_limit: 1 });
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject_reason).toContain("tunnel_peer_port_limit");
    await closeAll(c);
    expect((await plugin("NewProxy", httpProxy(c))).body.reject_reason).toContain("tunnel_peer_port_limit");
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
  });

  it("applies a smaller plan bandwidth to a running proxy within one heartbeat", async () => {
    const c = await customer({ bandwidth: 10 });
    const first = await plugin("NewProxy", tcpProxy(c));
    expect((first.body.content as Record<string, unknown>).bandwidth_limit).toBe("1220.703125KB");
    await flush();
    // A larger plan does not cut anyone off.
    await setPlan(t, c.uid, { bandwidth: 20 });
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    await setPlan(t, c.uid, { bandwidth: 5 });
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject).toBe(true);
    expect(ping.body.reject_reason).toContain("5 Mbps");
    await closeAll(c);
    const again = await plugin("NewProxy", tcpProxy(c));
    expect((again.body.content as Record<string, unknown>).bandwidth_limit).toBe("610.3515625KB");
    await flush();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
  });
});

describe("Ping, NewWorkConn, NewUserConn, CloseProxy", () => {
  it("allows the heartbeat and work connections of a good session", async () => {
    const c = await customer();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    expect((await plugin("NewWorkConn", { user: userInfo(c), run_id: RUN_ID })).body).toEqual(ALLOW);
  });

  it("rejects the heartbeat and work connections once the customer is banned or out of quota", async () => {
    const c = await customer();
    await setPlan(t, c.uid, { traffic: 1, used: 2 * 1024 ** 3 });
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual({ reject: true, reject_reason: "流量已用尽" });
    expect((await plugin("NewWorkConn", { user: userInfo(c), run_id: RUN_ID })).body.reject).toBe(true);
    const d = await customer();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: d.uid, status: -1, ban_reason: "x" } });
    expect((await plugin("Ping", { user: userInfo(d) })).body.reject).toBe(true);
  });

  it("records visitor connections and refuses them as soon as the tunnel is locked", async () => {
    const c = await customer();
    const conn = {
      user: userInfo(c),
      proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
      proxy_type: "tcp",
      remote_addr: "198.51.100.9:40112",
    };
    expect((await plugin("NewUserConn", conn)).body).toEqual(ALLOW);
    // A burst from one visitor (new source port each time) is one row with a count.
    for (const port of [40113, 40114]) await plugin("NewUserConn", { ...conn, remote_addr: `198.51.100.9:${port}` });
    await plugin("NewUserConn", { ...conn, remote_addr: "[2001:db8::7]:443" });
    await flush();
    const mine = await t.api<Paged<ConnRow>>("GET", `/user/tun/${c.tcp.tun_id}/conns`, {
      token: c.token,
    });
    expect(mine.body.data.list.map((r) => [r.remote_addr, r.conn_count])).toEqual([
      ["2001:db8::7", 1],
      ["198.51.100.9", 3],
    ]);
    const burst = mine.body.data.list[1];
    expect(burst.last_at >= burst.created_at).toBe(true);
    const all = await t.api<ConnOverview>("GET", "/super/tun/conns", { token: admin, query: { uid: c.uid } });
    expect(all.body.data.list[1]).toMatchObject({
      tun_id: c.tcp.tun_id,
      remote_addr: "198.51.100.9",
      conn_count: 3,
      node_id: node.node_id,
    });
    // Another customer sees none of it.
    const other = await customer();
    const foreign = await t.api("GET", `/user/tun/${c.tcp.tun_id}/conns`, { token: other.token });
    expect(foreign.status).toBe(404);

    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "abuse" },
    });
    const refused = await plugin("NewUserConn", { ...conn, remote_addr: "198.51.100.10:1" });
    expect(refused.body.reject).toBe(true);
    expect(refused.body.reject_reason).toContain("锁定");
  });

  it("cuts a locked tunnel off: the session's next heartbeat is refused, after CloseProxy the relogin works but the tunnel stays refused", async () => {
    const c = await customer();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    await flush();
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "spam" },
    });
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject).toBe(true);
    expect(ping.body.reject_reason).toContain("锁定");
    // Which session frps gave the proxy is not assumed: every session of the customer on the node
    // is refused while the blocked proxy is held.
    expect((await plugin("Ping", { user: userInfo(c, "aaaaaaaaaaaaaaaa") })).body.reject).toBe(true);
    // frps closes the session: CloseProxy for each proxy (answer ignored, always allow)
    for (const p of [tcpProxy(c), httpProxy(c)]) {
      expect((await plugin("CloseProxy", { user: userInfo(c), proxy_name: p.proxy_name })).body).toEqual(ALLOW);
    }
    await flush();
    expect((await plugin("Ping", { user: userInfo(c, "aaaaaaaaaaaaaaaa") })).body).toEqual(ALLOW);
    expect((await plugin("Login", { ...loginContent(c), run_id: RUN_ID })).body).toEqual(ALLOW);
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(true);
    await flush();
    const rows = await t.db
      .selectFrom("tunnels")
      .select(["tun_id", "status", "run_id"])
      .where("uid", "=", c.uid)
      .orderBy("tun_id")
      .execute();
    expect(rows).toEqual([
      { tun_id: c.tcp.tun_id, status: 3, run_id: null },
      { tun_id: c.http.tun_id, status: 1, run_id: RUN_ID },
    ]);
  });

  it("also cuts off a tunnel its owner turns off or deletes while connected", async () => {
    const c = await customer();
    await plugin("NewProxy", tcpProxy(c));
    await flush();
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id, enabled: false } });
    expect((await plugin("Ping", { user: userInfo(c) })).body.reject_reason).toContain("已停用");
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id, enabled: true } });
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id } });
    expect((await plugin("Ping", { user: userInfo(c) })).body.reject_reason).toContain("已删除");
    await plugin("CloseProxy", { user: userInfo(c), proxy_name: `${c.user}.t_${c.tcp.tun_id}` });
    await flush();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    const row = await t.db
      .selectFrom("tunnels")
      .select(["status", "run_id"])
      .where("tun_id", "=", c.tcp.tun_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: -1, run_id: null });
  });

  it("marks a tunnel offline on CloseProxy", async () => {
    const c = await customer();
    await plugin("NewProxy", tcpProxy(c));
    await flush();
    expect((await t.api<TunnelView>("GET", `/user/tun/${c.tcp.tun_id}`, { token: c.token })).body.data.status).toBe(1);
    expect((await plugin("CloseProxy", { user: userInfo(c), proxy_name: `${c.user}.t_${c.tcp.tun_id}` })).body).toEqual(
      ALLOW,
    );
    await flush();
    expect((await t.api<TunnelView>("GET", `/user/tun/${c.tcp.tun_id}`, { token: c.token })).body.data.status).toBe(2);
    // CloseProxy of something unknown is still answered "allow"
    expect((await plugin("CloseProxy", { user: userInfo(c), proxy_name: "x.y" })).body).toEqual(ALLOW);
  });
});
