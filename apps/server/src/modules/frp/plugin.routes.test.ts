import { createHash } from "node:crypto";
import type { AdminNodeDetail, ConnOverview, ConnRow, Paged, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { frpRuntime } from "./frp.routes";

let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  // Tunnel mechanics, not domain ownership (modules/domains tests that).
  openDomains(t);
  admin = await t.adminToken();
  node = await createTestNode(t, { bandwidth: 0 }, admin);
  other = await createTestNode(t, {}, admin);
  // Over a socket, as frps calls it: the fast path (plugin-http.ts) answers, not Fastify's route.
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

interface Customer {
  uid: number;
  token: string;
  user: string;
  frpToken: string;
  tcp: TunnelView;
  http: TunnelView;
}

async function customer(plan: Parameters<typeof setPlan>[2] = {}): Promise<Customer> {
  const u = await t.register();
  await setPlan(t, u.uid, { bandwidth: 10, ...plan });
  const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
  const tcp = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "tcp", local_port: 22 });
  const http = await createTestTunnel(t, u.token, {
    node_id: node.node_id,
    protocol: "http",
    local_port: 8080,
    custom_domains: [`www${u.uid}.example.com`],
    subdomain: `alice${u.uid}`,
    addon: { locations: ["/", "/api"], http_user: "u", http_password: "p", host_header_rewrite: "127.0.0.1" },
  });
  return { uid: u.uid, token: u.token, user: `u_${u.uid}`, frpToken: info.body.data.frp_token, tcp, http };
}

/** Posts exactly what frps posts: ?op=…&version=0.1.0, Go's headers, the plugin envelope. */
async function plugin(op: string, content: unknown, n: { node_id: number; plugin_secret: string } = node) {
  const res = await fetch(`${base}/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-frp-reqid": "0123456789abcdef",
      "user-agent": "Go-http-client/1.1",
    },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const RUN_ID = "8e2f0c4b9a1d7e35";
const userInfo = (c: Customer, runId = RUN_ID, token = c.frpToken) => ({
  user: c.user,
  metas: { token },
  run_id: runId,
});
const loginContent = (c: Customer, token = c.frpToken) => {
  const timestamp = 1753279200;
  return {
    version: "0.70.1",
    hostname: "nas",
    os: "linux",
    arch: "amd64",
    user: c.user,
    privilege_key: createHash("md5").update(`${timestamp}`).digest("hex"),
    timestamp,
    metas: { token },
    client_spec: {},
    pool_count: 1,
    client_address: "203.0.113.7:51234",
  };
};
const tcpProxy = (c: Customer, extra: Record<string, unknown> = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
  proxy_type: "tcp",
  remote_port: c.tcp.remote_port,
  ...extra,
});
const httpProxy = (c: Customer, extra: Record<string, unknown> = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${c.http.tun_id}`,
  proxy_type: "http",
  use_compression: true,
  metas: { tunnel_id: String(c.http.tun_id) },
  custom_domains: [`www${c.uid}.example.com`],
  subdomain: `alice${c.uid}`,
  locations: ["/", "/api"],
  http_user: "u",
  http_pwd: "p",
  host_header_rewrite: "127.0.0.1",
  ...extra,
});
const ALLOW = { reject: false, unchange: true };

async function flush() {
  await frpRuntime(t.ctx).writer.flush();
}

describe("plugin endpoint authentication", () => {
  it("refuses a wrong secret, an unknown node and a malformed body", async () => {
    const c = await customer();
    const wrong = await plugin("Login", loginContent(c), { node_id: node.node_id, plugin_secret: "nope" });
    expect(wrong.status).toBe(403);
    expect(wrong.body.reject).toBe(true);
    const otherSecret = await plugin("Login", loginContent(c), {
      node_id: node.node_id,
      plugin_secret: other.plugin_secret,
    });
    expect(otherSecret.status).toBe(403);
    const unknown = await plugin("Login", loginContent(c), { node_id: 999999, plugin_secret: node.plugin_secret });
    expect(unknown.status).toBe(403);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=Login&version=0.1.0`,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ version: "0.1.0", op: "Login" }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().reject).toBe(true);
  });

  it("lets an op it does not know pass unchanged", async () => {
    const r = await plugin("FutureOp", { user: { user: "u_1", metas: null, run_id: RUN_ID } });
    expect(r).toEqual({ status: 200, body: ALLOW });
  });
});

describe("content validation", () => {
  const cases: [string, string, (c: Customer) => unknown, string][] = [
    ["custom_domains as a string", "NewProxy", (c) => httpProxy(c, { custom_domains: "x.com" }), "custom_domains"],
    ["subdomain as a number on an http tunnel", "NewProxy", (c) => httpProxy(c, { subdomain: 5 }), "subdomain"],
    ["remote_port as a string", "NewProxy", (c) => tcpProxy(c, { remote_port: "6000" }), "remote_port"],
    ["remote_port out of range", "NewProxy", (c) => tcpProxy(c, { remote_port: 70000 }), "remote_port"],
    ["no run_id", "NewProxy", (c) => tcpProxy(c, { user: userInfo(c, "") }), "user.run_id"],
    ["no user object", "NewProxy", (c) => tcpProxy(c, { user: undefined }), "user"],
    ["a load-balancing group", "NewProxy", (c) => tcpProxy(c, { group: "g", group_key: "k" }), "group"],
    ["proxy_name as a number", "NewUserConn", (c) => ({ user: userInfo(c), proxy_name: 5 }), "proxy_name"],
    [
      "a heartbeat without run_id",
      "Ping",
      (c) => ({ user: { user: c.user, metas: { token: c.frpToken } } }),
      "user.run_id",
    ],
    ["a token that is not a string", "Login", (c) => ({ ...loginContent(c), metas: { token: 5 } }), "metas.token"],
    ["user as a number", "NewWorkConn", (c) => ({ user: { ...userInfo(c), user: 7 } }), "user.user"],
  ];
  for (const [what, op, content, field] of cases) {
    it(`refuses ${what} with a 200 reject naming the field (${op})`, async () => {
      const c = await customer();
      const r = await plugin(op, content(c));
      expect(r.status).toBe(200);
      expect(r.body.reject).toBe(true);
      expect(r.body.reject_reason).toContain(`插件请求无效：${field}`);
      await flush();
      // Nothing was recorded: the tunnels did not become connected.
      for (const id of [c.tcp.tun_id, c.http.tun_id]) {
        const row = await t.db
          .selectFrom("tunnels")
          .select(["status", "run_id"])
          .where("tun_id", "=", id)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ status: 2, run_id: null });
      }
    });
  }

  it("answers unknown nodes 403 from memory, without a query each and without evicting real nodes", async () => {
    const c = await customer();
    const cache = frpRuntime(t.ctx).cache;
    expect((await plugin("Login", loginContent(c))).body).toEqual(ALLOW);
    const loads = cache.stats().nodeLoads;
    for (let i = 0; i < 200; i++) {
      const r = await plugin("Login", loginContent(c), { node_id: 500_000 + i, plugin_secret: node.plugin_secret });
      expect(r.status).toBe(403);
    }
    // At most one reload of the node list (a node created while its event was lost).
    expect(cache.stats().nodeLoads - loads).toBeLessThanOrEqual(1);
    const after = cache.stats().nodeLoads;
    expect((await plugin("Login", loginContent(c))).body).toEqual(ALLOW);
    expect(cache.stats().nodeLoads).toBe(after);
    expect((await plugin("Login", loginContent(c), { node_id: 0, plugin_secret: "x" })).status).toBe(403);
  });
});

describe("Login", () => {
  it("allows an active customer with the right token and a usable plan", async () => {
    const c = await customer();
    expect(await plugin("Login", loginContent(c))).toEqual({ status: 200, body: ALLOW });
  });

  it("rejects a wrong or missing token, a foreign user name and an unknown user", async () => {
    const c = await customer();
    const wrong = await plugin("Login", loginContent(c, "not-the-token"));
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ reject: true, reject_reason: expect.stringContaining("令牌") });
    const { metas: _m, ...noToken } = loginContent(c);
    expect((await plugin("Login", noToken)).body.reject).toBe(true);
    expect((await plugin("Login", { ...loginContent(c), user: "alice" })).body.reject).toBe(true);
    const { user: _u, ...noUser } = loginContent(c);
    expect((await plugin("Login", noUser)).body.reject).toBe(true);
    expect((await plugin("Login", { ...loginContent(c), user: "u_99999999" })).body.reject).toBe(true);
  });

  it("rejects a banned customer at once (user.changed)", async () => {
    const c = await customer();
    expect((await plugin("Login", loginContent(c))).body).toEqual(ALLOW);
    const ban = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: c.uid, status: -1, ban_reason: "abuse" },
    });
    expect(ban.body.code).toBe("SUCCESS");
    const r = await plugin("Login", loginContent(c));
    expect(r.body).toEqual({ reject: true, reject_reason: "账号已被封禁" });
  });

  it("rejects an expired plan, spent quota, a plan below the node's level and an off-shelf node", async () => {
    const expired = await customer();
    await setPlan(t, expired.uid, { end_at: new Date(Date.now() - 1000).toISOString() });
    expect((await plugin("Login", loginContent(expired))).body.reject).toBe(true);

    const spent = await customer({ traffic: 1, used: 1024 ** 3 });
    expect((await plugin("Login", loginContent(spent))).body).toEqual({ reject: true, reject_reason: "流量已用尽" });

    const pro = await t.db.selectFrom("plan_levels").select("id").where("level", "=", 2).executeTakeFirstOrThrow();
    const proNode = await createTestNode(t, { level_id: pro.id }, admin);
    const low = await customer();
    const r = await plugin("Login", loginContent(low), proNode);
    expect(r.body.reject).toBe(true);
    expect(r.body.reject_reason).toContain("等级");

    const offNode = await createTestNode(t, {}, admin);
    expect((await plugin("Login", loginContent(low), offNode)).body).toEqual(ALLOW);
    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: offNode.node_id, status: -1 } });
    expect((await plugin("Login", loginContent(low), offNode)).body).toEqual({
      reject: true,
      reject_reason: "节点已下架",
    });
  });

  it("rejects an old token after the customer resets it (user.changed)", async () => {
    const c = await customer();
    await t.api("POST", "/user/frpToken", { token: c.token });
    expect((await plugin("Login", loginContent(c))).body.reject).toBe(true);
  });
});

describe("NewProxy", () => {
  it("answers the full content with the plan's bandwidth enforced by the server", async () => {
    const c = await customer({ bandwidth: 10 });
    const content = tcpProxy(c);
    const r = await plugin("NewProxy", content);
    expect(r.status).toBe(200);
    // 10 Mbps = 1,250,000 bytes/s = 1220.703125 KB
    expect(r.body).toEqual({
      reject: false,
      unchange: false,
      content: { ...content, bandwidth_limit: "1220.703125KB", bandwidth_limit_mode: "server" },
    });
    await flush();
    const row = await t.db
      .selectFrom("tunnels")
      .selectAll()
      .where("tun_id", "=", c.tcp.tun_id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(1);
    expect(row.run_id).toBe(RUN_ID);
    expect(row.last_online_at).toBeTruthy();
  });

  it("uses the tunnel's, the node's or the plan's bandwidth, whichever is lowest, and leaves unlimited proxies alone", async () => {
    const c = await customer({ bandwidth: 10 });
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.tcp.tun_id, bandwidth: 2 } });
    const r = await plugin("NewProxy", tcpProxy(c, { bandwidth_limit: "100MB", bandwidth_limit_mode: "client" }));
    expect((r.body.content as Record<string, unknown>).bandwidth_limit).toBe("244.140625KB");
    expect((r.body.content as Record<string, unknown>).bandwidth_limit_mode).toBe("server");
    const free = await customer({ bandwidth: 0 });
    const u = await plugin("NewProxy", tcpProxy(free, { bandwidth_limit: "1MB", bandwidth_limit_mode: "server" }));
    expect(u.body.content).toEqual(tcpProxy(free));
  });

  it("fills in the remote port when frpc leaves it to the server", async () => {
    const c = await customer();
    const { remote_port: _r, ...noPort } = tcpProxy(c);
    const r = await plugin("NewProxy", noPort);
    expect((r.body.content as Record<string, unknown>).remote_port).toBe(c.tcp.remote_port);
  });

  it("accepts an http proxy whose domains match, keeping every field it was sent", async () => {
    const c = await customer();
    const content = httpProxy(c);
    const r = await plugin("NewProxy", content);
    expect(r.body).toEqual({
      reject: false,
      unchange: false,
      content: { ...content, bandwidth_limit: "1220.703125KB", bandwidth_limit_mode: "server" },
    });
  });

  it("rejects a wrong port, type or domains, a foreign or unknown proxy and a tunnel of another node", async () => {
    const c = await customer();
    const d = await customer();
    const cases: [Record<string, unknown>, string][] = [
      [tcpProxy(c, { remote_port: 30999 }), "远程端口"],
      [tcpProxy(c, { proxy_type: "udp" }), "类型"],
      [httpProxy(c, { custom_domains: ["evil.example.com"] }), "域名"],
      [httpProxy(c, { subdomain: "other" }), "子域名"],
      [tcpProxy(c, { proxy_name: `${c.user}.t_${d.tcp.tun_id}` }), ""],
      [tcpProxy(c, { proxy_name: `${d.user}.t_${d.tcp.tun_id}` }), "未知隧道"],
      [tcpProxy(c, { proxy_name: `${c.user}.ssh` }), "未知隧道"],
    ];
    for (const [content, reason] of cases) {
      const r = await plugin("NewProxy", content);
      expect(r.status).toBe(200);
      expect(r.body.reject, JSON.stringify(content)).toBe(true);
      expect(r.body.reject_reason).toContain(reason);
    }
    const onOther = await plugin("NewProxy", tcpProxy(c), other);
    expect(onOther.body.reject).toBe(true);
    expect(onOther.body.reject_reason).toContain("不属于此节点");
  });

  it("rejects a locked, disabled or deleted tunnel", async () => {
    const c = await customer();
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "phishing" },
    });
    const locked = await plugin("NewProxy", tcpProxy(c));
    expect(locked.body).toEqual({ reject: true, reject_reason: `隧道 ${c.tcp.tun_name} 已被锁定：phishing` });
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id, enabled: false } });
    expect((await plugin("NewProxy", httpProxy(c))).body.reject_reason).toContain("已停用");
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id, enabled: true } });
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
    await t.api("DELETE", "/user/tun", { token: c.token, body: { tun_id: c.http.tun_id } });
    expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(true);
  });
});

describe("limits at connect time", () => {
  const closeAll = async (c: Customer) => {
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

describe("the decision cache", () => {
  it("answers warm plugin calls without reading the database (only batched writes happen)", async () => {
    const c = await customer();
    await plugin("Login", loginContent(c));
    await plugin("NewProxy", tcpProxy(c));
    await flush();
    const db = t.db as unknown as Record<string, unknown>;
    // Every decision would need a read; the write-behind batch only inserts and updates.
    const saved = { selectFrom: db.selectFrom, selectNoFrom: db.selectNoFrom };
    let queries = 0;
    for (const k of Object.keys(saved)) {
      db[k] = () => {
        queries++;
        throw new Error("database used on the hot path");
      };
    }
    try {
      for (let i = 0; i < 20; i++) {
        expect((await plugin("Login", loginContent(c))).body).toEqual(ALLOW);
        expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
        expect((await plugin("NewWorkConn", { user: userInfo(c), run_id: RUN_ID })).body).toEqual(ALLOW);
        const conn = {
          user: userInfo(c),
          proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
          proxy_type: "tcp",
          remote_addr: `10.0.0.${i}:1`,
        };
        expect((await plugin("NewUserConn", conn)).body).toEqual(ALLOW);
      }
    } finally {
      Object.assign(db, saved);
    }
    expect(queries).toBe(0);
    await flush();
    const n = await t.db
      .selectFrom("tunnel_conns")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("tun_id", "=", c.tcp.tun_id)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(20);
  });
});
