import type { AdminNodeDetail, TunnelBatchResult, TunnelConfig, TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel } from "../../../test/frp-fixtures";
import { ALLOW, httpProxy, loginContent, RUN_ID, tcpProxy, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { pluginSuite } from "../../../test/plugin-fixtures";

/* 我的隧道's batch actions, moving a tunnel to another node, and the PROXY protocol option. */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
beforeAll(() => {
  ({ t, admin, node, other } = suite.get());
});

const batch = (token: string, body: Record<string, unknown>) =>
  t.api<TunnelBatchResult>("POST", "/user/tun/batch", { token, body });
const move = (token: string, body: Record<string, unknown>) =>
  t.api<TunnelView>("POST", "/user/tun/move", { token, body });
const row = (tunId: number) =>
  t.db
    .selectFrom("tunnels")
    .select(["node_id", "enabled", "status", "remote_port", "run_id"])
    .where("tun_id", "=", tunId)
    .executeTakeFirstOrThrow();
const config = async (token: string, tunId: number) =>
  (await t.api<TunnelConfig>("GET", "/user/tun/config", { token, query: { tun_id: tunId } })).body.data;

describe("batch actions", () => {
  it("disables, enables and deletes several tunnels in one call", async () => {
    const c = await customer();
    const ids = [c.tcp.tun_id, c.http.tun_id];
    const off = await batch(c.token, { tun_ids: ids, action: "disable" });
    expect(off.body.data).toEqual({ done: ids, failed: [] });
    expect((await row(c.tcp.tun_id)).enabled).toBe(0);
    expect((await row(c.http.tun_id)).enabled).toBe(0);
    // A disabled tunnel is refused at NewProxy, as after the single switch.
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(true);
    const on = await batch(c.token, { tun_ids: ids, action: "enable" });
    expect(on.body.data).toEqual({ done: ids, failed: [] });
    expect((await row(c.http.tun_id)).enabled).toBe(1);
    const del = await batch(c.token, { tun_ids: ids, action: "delete" });
    expect(del.body.data).toEqual({ done: ids, failed: [] });
    expect((await row(c.tcp.tun_id)).status).toBe(-1);
    expect((await row(c.http.tun_id)).status).toBe(-1);
  });

  it("refuses the whole call (404, nothing changed) when one id is another customer's or unknown", async () => {
    const c = await customer();
    const stranger = await customer();
    for (const foreign of [stranger.tcp.tun_id, 99_999_999]) {
      const r = await batch(c.token, { tun_ids: [c.tcp.tun_id, foreign], action: "delete" });
      expect(r.status).toBe(404);
    }
    expect((await row(c.tcp.tun_id)).status).not.toBe(-1);
    expect((await row(stranger.tcp.tun_id)).status).not.toBe(-1);
    // A tunnel the customer deleted before counts as gone too.
    await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id } });
    const gone = await batch(c.token, { tun_ids: [c.tcp.tun_id, c.http.tun_id], action: "disable" });
    expect(gone.status).toBe(404);
    expect((await row(c.tcp.tun_id)).enabled).toBe(1);
  });

  it("checks each tunnel as the single call does: a locked one is reported, the others done", async () => {
    const c = await customer();
    const lock = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: c.http.tun_id, status: 3, banned_reason: "违规内容" },
    });
    expect(lock.body.code).toBe("SUCCESS");
    const single = await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id } });
    const r = await batch(c.token, { tun_ids: [c.http.tun_id, c.tcp.tun_id], action: "delete" });
    expect(r.body.data).toEqual({
      done: [c.tcp.tun_id],
      failed: [{ tun_id: c.http.tun_id, code: single.body.code, msg: single.body.msg }],
    });
    expect((await row(c.http.tun_id)).status).toBe(3);
    expect((await row(c.tcp.tun_id)).status).toBe(-1);
  });

  it("names the bad field (10000) and bounds the count", async () => {
    const c = await customer();
    const cases: [Record<string, unknown>, string][] = [
      [{ tun_ids: [], action: "delete" }, "tun_ids"],
      [{ tun_ids: Array.from({ length: 51 }, (_, i) => i + 1), action: "delete" }, "tun_ids"],
      [{ tun_ids: [c.tcp.tun_id, c.tcp.tun_id], action: "delete" }, "tun_ids"],
      [{ tun_ids: [c.tcp.tun_id], action: "lock" }, "action"],
    ];
    for (const [body, field] of cases) {
      const r = await batch(c.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    expect((await row(c.tcp.tun_id)).status).not.toBe(-1);
  });
});

describe("moving a tunnel to another node", () => {
  it("moves a tcp tunnel with its port, frees the port on the old node and hands out the new config", async () => {
    const c = await customer();
    const port = c.tcp.remote_port as number;
    const r = await move(c.token, { tun_id: c.tcp.tun_id, node_id: other.node_id });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ node_id: other.node_id, remote_port: port, status: 2 });
    const cfg = await config(c.token, c.tcp.tun_id);
    expect(cfg.node_id).toBe(other.node_id);
    expect(cfg.toml).toContain(`#${other.node_id}）`);
    // The old node's port is free for anyone again.
    const d = await customer();
    const taken = await createTestTunnel(t, d.token, { node_id: node.node_id, remote_port: port });
    expect(taken.remote_port).toBe(port);
  });

  it("re-checks the port there: taken is 40001, out of range is 10000, and nothing moves", async () => {
    const c = await customer();
    const d = await customer();
    const theirs = await createTestTunnel(t, d.token, { node_id: other.node_id });
    const taken = await move(c.token, {
      tun_id: c.tcp.tun_id,
      node_id: other.node_id,
      remote_port: theirs.remote_port,
    });
    expect(taken.body.code).toBe(40001);
    const outside = await move(c.token, { tun_id: c.tcp.tun_id, node_id: other.node_id, remote_port: 30000 });
    expect(outside.status).toBe(400);
    expect(outside.body.msg).toContain("remote_port");
    expect((await row(c.tcp.tun_id)).node_id).toBe(node.node_id);
    // 0 picks a free port on the new node.
    const random = await move(c.token, { tun_id: c.tcp.tun_id, node_id: other.node_id, remote_port: 0 });
    expect(random.body.data.node_id).toBe(other.node_id);
    expect(random.body.data.remote_port).not.toBe(theirs.remote_port);
  });

  it("re-checks the domains there and moves them with the tunnel", async () => {
    const c = await customer();
    const d = await customer();
    // d's tunnel holds c's subdomain on the other node.
    await createTestTunnel(t, d.token, { node_id: other.node_id, protocol: "http", subdomain: `alice${c.uid}` });
    const clash = await move(c.token, { tun_id: c.http.tun_id, node_id: other.node_id });
    expect(clash.body.code).toBe(40001);
    const domains = () =>
      t.db.selectFrom("tunnel_domains").select(["node_id", "domain"]).where("tun_id", "=", c.http.tun_id).execute();
    expect(new Set((await domains()).map((x) => x.node_id))).toEqual(new Set([node.node_id]));
    const third = await createTestNode(t, { host: "third.example.net", subdomain_host: "third.example.net" }, admin);
    const moved = await move(c.token, { tun_id: c.http.tun_id, node_id: third.node_id });
    expect(moved.body.data.addresses).toEqual([
      `http://www${c.uid}.example.com`,
      `http://alice${c.uid}.third.example.net`,
    ]);
    expect(await domains()).toEqual(
      expect.arrayContaining([
        { node_id: third.node_id, domain: `www${c.uid}.example.com` },
        { node_id: third.node_id, domain: `alice${c.uid}.third.example.net` },
      ]),
    );
    expect((await domains()).length).toBe(2);
  });

  it("lets one of two moves racing for the same port win (the other 40001)", async () => {
    const a = await customer();
    const b = await customer();
    const free = await t.db
      .selectFrom("tunnels")
      .select("remote_port")
      .where("node_id", "=", other.node_id)
      .where("status", "<>", -1)
      .execute();
    const used = new Set(free.map((x) => x.remote_port));
    const port = [...Array(101).keys()].map((i) => 20000 + i).find((p) => !used.has(p)) as number;
    const [ra, rb] = await Promise.all([
      move(a.token, { tun_id: a.tcp.tun_id, node_id: other.node_id, remote_port: port }),
      move(b.token, { tun_id: b.tcp.tun_id, node_id: other.node_id, remote_port: port }),
    ]);
    expect([ra.body.code, rb.body.code].sort()).toEqual([40001, "SUCCESS"].sort());
    const holders = await t.db
      .selectFrom("tunnels")
      .select("tun_id")
      .where("node_id", "=", other.node_id)
      .where("remote_port", "=", port)
      .execute();
    expect(holders).toHaveLength(1);
  });

  it("refuses another customer's tunnel (404), the node it is on (10000) and a locked one", async () => {
    const c = await customer();
    const d = await customer();
    expect((await move(d.token, { tun_id: c.tcp.tun_id, node_id: other.node_id })).status).toBe(404);
    const same = await move(c.token, { tun_id: c.tcp.tun_id, node_id: node.node_id });
    expect(same.status).toBe(400);
    expect(same.body.msg).toContain("node_id");
    await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "x" } });
    expect((await move(c.token, { tun_id: c.tcp.tun_id, node_id: other.node_id })).body.code).not.toBe("SUCCESS");
    expect((await row(c.tcp.tun_id)).node_id).toBe(node.node_id);
  });

  it("frees the old node's session: its heartbeat is refused until frps closes the old proxy, the new node takes the hold", async () => {
    const c = await customer();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    await flush();
    expect((await row(c.tcp.tun_id)).run_id).toBe(RUN_ID);
    const r = await move(c.token, { tun_id: c.tcp.tun_id, node_id: other.node_id, remote_port: 0 });
    expect(r.body.data?.status, JSON.stringify(r.body)).toBe(2);
    expect((await row(c.tcp.tun_id)).run_id).toBeNull();
    // The old node: the session that still serves it is cut at its heartbeat, its visitors refused.
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject).toBe(true);
    expect(ping.body.reject_reason).toContain("已迁移");
    const visitor = await plugin("NewUserConn", {
      user: userInfo(c),
      proxy_name: tcpProxy(c).proxy_name,
      proxy_type: "tcp",
      remote_addr: "198.51.100.9:40000",
    });
    expect(visitor.body.reject).toBe(true);
    // Another session of the customer on that node never held it: not cut.
    expect((await plugin("Ping", { user: userInfo(c, "0123456789abcdef") })).body).toEqual(ALLOW);
    // frps closes the old proxy: the session is welcome again, but not with the moved tunnel.
    await plugin("CloseProxy", { user: userInfo(c), proxy_name: tcpProxy(c).proxy_name });
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    const again = await plugin("NewProxy", tcpProxy(c));
    expect(again.body.reject).toBe(true);
    expect(again.body.reject_reason).toContain("不属于此节点");
    // The new node's frpc (another session) gets it and holds it.
    const newRun = "c0ffee0000000001";
    const there = await plugin(
      "NewProxy",
      { ...tcpProxy(c), remote_port: r.body.data.remote_port, user: userInfo(c, newRun) },
      other,
    );
    expect(there.body.reject).toBe(false);
    await flush();
    expect(await row(c.tcp.tun_id)).toMatchObject({ run_id: newRun, status: 1, node_id: other.node_id });
  });

  it("lets the old session back once it logs in again, when frps never sent the old proxy's close (a crash)", async () => {
    const c = await customer();
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    await flush();
    expect((await move(c.token, { tun_id: c.http.tun_id, node_id: other.node_id })).body.code).toBe("SUCCESS");
    expect((await plugin("Ping", { user: userInfo(c) })).body.reject).toBe(true);
    // frpc logs in again under its run id: frps dropped that session's proxies with it.
    expect((await plugin("Login", { ...loginContent(c), run_id: RUN_ID })).body).toEqual(ALLOW);
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
  });
});

describe("PROXY protocol", () => {
  it("writes transport.proxyProtocolVersion into frpc.toml for tcp, http and https, and drops it when off", async () => {
    const c = await customer();
    expect(c.tcp.proxy_protocol).toBe("off");
    expect((await config(c.token, c.tcp.tun_id)).toml).not.toContain("proxyProtocolVersion");
    const v2 = await createTestTunnel(t, c.token, { node_id: node.node_id, proxy_protocol: "v2" });
    expect(v2.proxy_protocol).toBe("v2");
    expect((await config(c.token, v2.tun_id)).toml).toContain('transport.proxyProtocolVersion = "v2"');
    const edit = await t.api<TunnelView>("PATCH", "/user/tun", {
      token: c.token,
      body: { tun_id: c.http.tun_id, proxy_protocol: "v1" },
    });
    expect(edit.body.data.proxy_protocol).toBe("v1");
    expect((await config(c.token, c.http.tun_id)).toml).toContain('transport.proxyProtocolVersion = "v1"');
    // Other edits keep it; "off" removes it.
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id, local_port: 8081 } });
    expect((await config(c.token, c.http.tun_id)).toml).toContain('transport.proxyProtocolVersion = "v1"');
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id, proxy_protocol: "off" } });
    expect((await config(c.token, c.http.tun_id)).toml).not.toContain("proxyProtocolVersion");
    // The option does not travel in NewProxy (frpc writes the header itself): admitted unchanged.
    const np = await plugin("NewProxy", {
      user: userInfo(c, "feedface00000001"),
      proxy_name: `${c.user}.t_${v2.tun_id}`,
      proxy_type: "tcp",
      remote_port: v2.remote_port,
    });
    expect(np.body.reject).toBe(false);
  });

  it("refuses it on udp and an unknown version (10000 naming proxy_protocol)", async () => {
    const c = await customer();
    const udp = await t.api("POST", "/user/tun", {
      token: c.token,
      body: { tun_name: "dns", node_id: node.node_id, protocol: "udp", local_port: 53, proxy_protocol: "v1" },
    });
    expect(udp.status).toBe(400);
    expect(udp.body.msg).toContain("proxy_protocol");
    const bad = await t.api("PATCH", "/user/tun", {
      token: c.token,
      body: { tun_id: c.tcp.tun_id, proxy_protocol: "v3" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("proxy_protocol");
    const u = await createTestTunnel(t, c.token, { node_id: node.node_id, protocol: "udp", local_port: 53 });
    const later = await t.api("PATCH", "/user/tun", {
      token: c.token,
      body: { tun_id: u.tun_id, proxy_protocol: "v2" },
    });
    expect(later.status).toBe(400);
    expect(later.body.msg).toContain("proxy_protocol");
    expect((await config(c.token, u.tun_id)).toml).not.toContain("proxyProtocolVersion");
  });
});
