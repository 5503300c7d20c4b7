import type { AdminNodeDetail } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestNode, setPlan } from "../../../test/frp-fixtures";
import { ALLOW, httpProxy, loginContent, RUN_ID, tcpProxy } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { pluginSuite } from "../../../test/plugin-fixtures";

/* Login and NewProxy: who may connect, and which proxies they may start. */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
let admin: string;
let other: AdminNodeDetail;
beforeAll(() => {
  ({ t, admin, other } = suite.get());
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
