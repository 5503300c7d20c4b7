import type { AdminTunnelRow, Paged, TunnelConfig, TunnelDetail, TunnelView } from "@burrow/contract";
import { parseFrpcConfig, parseToml } from "@burrow/frps-sim";
import { beforeAll, describe, expect, it } from "vitest";
import { setPlan } from "../../../test/frp-fixtures";
import { ALLOW, loginContent, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";

/* Secret tunnels (stcp, xtcp, sudp): the API, the two frpc.toml files, and the plugin's NewProxy. */

const suite = pluginSuite();
const { customer, plugin } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

const create = (c: { token: string }, body: Record<string, unknown>) =>
  t.api<TunnelView>("POST", "/user/tun", {
    token: c.token,
    body: {
      tun_name: `s${Math.random().toString(36).slice(2, 8)}`,
      node_id: suite.get().node.node_id,
      local_port: 22,
      ...body,
    },
  });
const detail = (c: { token: string }, tunId: number) =>
  t.api<TunnelDetail>("GET", `/user/tun/${tunId}`, { token: c.token });
const visitor = (c: { token: string }, tunId: number) =>
  t.api<TunnelConfig>("GET", `/user/tun/${tunId}/visitor`, { token: c.token });
const rotate = (c: { token: string }, tunId: number) =>
  t.api<TunnelDetail>("POST", `/user/tun/${tunId}/secret`, { token: c.token });
const serving = (c: { token: string }, tunId: number) =>
  t.api<TunnelConfig>("GET", "/user/tun/config", { token: c.token, query: { tun_id: tunId } });

/** The NewProxy frpc sends for a secret tunnel with its frpc.toml as the console wrote it. */
const secretProxy = (c: PluginCustomer, tun: { tun_id: number; protocol: string }, sk: string, extra = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${tun.tun_id}`,
  proxy_type: tun.protocol,
  metas: { tunnel_id: String(tun.tun_id) },
  sk,
  ...extra,
});

describe("creating and editing secret tunnels", () => {
  it("creates stcp, xtcp and sudp tunnels with a secret for the owner, no port, no address", async () => {
    const c = await customer();
    for (const protocol of ["stcp", "xtcp", "sudp"]) {
      const r = await create(c, { protocol });
      expect(r.body.code).toBe("SUCCESS");
      expect(r.body.data).toMatchObject({ protocol, remote_port: null, addresses: [], custom_domains: [] });
      // The create answer and lists carry no secret; the owner's detail does.
      expect(r.body.data).not.toHaveProperty("secret_key");
      const d = await detail(c, r.body.data.tun_id);
      expect(d.body.data.secret_key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    }
    const tcp = await detail(c, c.tcp.tun_id);
    expect(tcp.body.data.secret_key).toBeNull();
  });

  it("refuses a remote port, a domain or the PROXY protocol on a secret tunnel, changing nothing", async () => {
    const c = await customer();
    const before = (await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: c.token })).body.data.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ protocol: "stcp", remote_port: 20050 }, "remote_port"],
      [{ protocol: "xtcp", custom_domains: ["a.example.com"] }, "custom_domains"],
      [{ protocol: "sudp", subdomain: "abc" }, "subdomain"],
      [{ protocol: "stcp", proxy_protocol: "v2" }, "proxy_protocol"],
    ];
    for (const [body, field] of cases) {
      const r = await create(c, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    const s = (await create(c, { protocol: "stcp" })).body.data;
    for (const [body, field] of [
      [{ remote_port: 20051 }, "remote_port"],
      [{ subdomain: "abc" }, "subdomain"],
    ] as const) {
      const r = await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: s.tun_id, ...body } });
      expect(r.status).toBe(400);
      expect(r.body.msg).toContain(field);
    }
    const after = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: c.token });
    expect(after.body.data.total).toBe(before + 1);
    expect((await detail(c, s.tun_id)).body.data.remote_port).toBeNull();
    // An edit that is allowed keeps the secret.
    const key = (await detail(c, s.tun_id)).body.data.secret_key;
    const ok = await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: s.tun_id, local_port: 2222 } });
    expect(ok.body.code).toBe("SUCCESS");
    expect((await detail(c, s.tun_id)).body.data.secret_key).toBe(key);
  });

  it("counts secret tunnels in the plan's tunnel limit", async () => {
    const c = await customer();
    // The suite's customer holds a tcp and an http tunnel: one more fits.
    await setPlan(t, c.uid, { tunnel_limit: 3, bandwidth: 10 });
    expect((await create(c, { protocol: "sudp" })).body.code).toBe("SUCCESS");
    const r = await create(c, { protocol: "stcp" });
    expect(r.body.code).toBe(2001);
    expect(r.body.msg).toContain("tunnel_limit");
  });

  it("keeps the secret from other customers and from the operators' rows", async () => {
    const c = await customer();
    const other = await customer();
    const s = (await create(c, { protocol: "stcp" })).body.data;
    const key = (await detail(c, s.tun_id)).body.data.secret_key!;
    for (const r of [await detail(other, s.tun_id), await visitor(other, s.tun_id), await rotate(other, s.tun_id)]) {
      expect(r.status).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain(key);
    }
    const row = await t.api<AdminTunnelRow>("GET", "/super/tun/detail", { token: admin, query: { tun_id: s.tun_id } });
    expect(row.body.code).toBe("SUCCESS");
    expect(JSON.stringify(row.body)).not.toContain(key);
    const list = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: c.token });
    expect(JSON.stringify(list.body)).not.toContain(key);
  });
});

describe("the two frpc.toml files", () => {
  it("writes the secret into the serving side and a visitor side that logs in as the owner", async () => {
    const c = await customer();
    const s = (await create(c, { protocol: "stcp", local_port: 22 })).body.data;
    const key = (await detail(c, s.tun_id)).body.data.secret_key!;
    const serve = (await serving(c, s.tun_id)).body.data.toml;
    expect(serve).toContain('type = "stcp"');
    expect(serve).toContain(`secretKey = "${key}"`);
    expect(serve).not.toContain("remotePort");
    const v = await visitor(c, s.tun_id);
    expect(v.body.data.filename).toBe(`frpc_visitor_t${s.tun_id}.toml`);
    const toml = v.body.data.toml;
    expect(toml).toContain(`user = "${c.user}"`);
    expect(toml).toContain(`metadatas.token = "${c.frpToken}"`);
    expect(toml).toContain("[[visitors]]");
    expect(toml).toContain(`serverUser = "${c.user}"`);
    expect(toml).toContain(`serverName = "t_${s.tun_id}"`);
    expect(toml).toContain(`secretKey = "${key}"`);
    // Port 22 needs root on the visitor machine: 10022 there.
    expect(toml).toContain("bindPort = 10022");
    expect(toml).not.toContain("[[proxies]]");
  });

  it("writes an xtcp tunnel's stcp fallback on both sides; a sudp visitor; a tcp tunnel has no visitor side", async () => {
    const c = await customer();
    const x = (await create(c, { protocol: "xtcp", local_port: 5000, use_encryption: true })).body.data;
    const key = (await detail(c, x.tun_id)).body.data.secret_key!;
    // Serving side: the xtcp proxy and its stcp fallback, the same secret and local service.
    const serve = parseToml((await serving(c, x.tun_id)).body.data.toml);
    const proxies = (serve.proxies as Record<string, unknown>[]).map((p) => ({
      name: p.name,
      type: p.type,
      secretKey: p.secretKey,
      localPort: p.localPort,
      remotePort: p.remotePort,
      transport: p.transport,
    }));
    const same = { secretKey: key, localPort: 5000, remotePort: undefined, transport: { useEncryption: true } };
    expect(proxies).toEqual([
      { name: `t_${x.tun_id}`, type: "xtcp", ...same },
      { name: `t_${x.tun_id}_stcp`, type: "stcp", ...same },
    ]);
    // Visitor side: the xtcp visitor falls back to an stcp visitor of that proxy, which listens on nothing.
    const vt = (await visitor(c, x.tun_id)).body.data.toml;
    expect(parseToml(vt).visitors).toEqual([
      {
        name: `v_${x.tun_id}`,
        type: "xtcp",
        serverUser: c.user,
        serverName: `t_${x.tun_id}`,
        secretKey: key,
        bindAddr: "127.0.0.1",
        bindPort: 5000,
        transport: { useEncryption: true },
        keepTunnelOpen: false,
        fallbackTo: `v_${x.tun_id}_stcp`,
        fallbackTimeoutMs: 1000,
      },
      {
        name: `v_${x.tun_id}_stcp`,
        type: "stcp",
        serverUser: c.user,
        serverName: `t_${x.tun_id}_stcp`,
        secretKey: key,
        bindPort: -1,
        transport: { useEncryption: true },
      },
    ]);
    // Both files hold only keys frp knows, on the oldest and newest frpc Burrow supports.
    for (const version of ["0.52.3", "0.70.1"]) {
      expect(parseFrpcConfig(vt, version).proxies).toEqual([]);
      expect(parseFrpcConfig((await serving(c, x.tun_id)).body.data.toml, version).proxies).toHaveLength(2);
    }
    // Other secret types have no fallback.
    const s = (await create(c, { protocol: "stcp", local_port: 5001 })).body.data;
    expect((await serving(c, s.tun_id)).body.data.toml).not.toContain("_stcp");
    expect((await visitor(c, s.tun_id)).body.data.toml).not.toContain("fallbackTo");
    const u = (await create(c, { protocol: "sudp", local_port: 53 })).body.data;
    expect((await visitor(c, u.tun_id)).body.data.toml).toContain('type = "sudp"');
    const r = await visitor(c, c.tcp.tun_id);
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("tunid");
  });
});

describe("rotating the secret and the plugin's NewProxy", () => {
  it("admits the visitor's Login and the proxy with its secret; refuses another secret, allowUsers or a port", async () => {
    const c = await customer();
    const s = (await create(c, { protocol: "stcp" })).body.data;
    const key = (await detail(c, s.tun_id)).body.data.secret_key!;
    // The visitor frpc logs in as the same customer.
    expect((await plugin("Login", loginContent(c))).body).toEqual(ALLOW);
    const wrong = await plugin("NewProxy", secretProxy(c, s, "not-the-secret-at-all-xx"));
    expect(wrong.body).toMatchObject({ reject: true });
    expect(String(wrong.body.reject_reason)).toContain("密钥");
    const open = await plugin("NewProxy", secretProxy(c, s, key, { allow_users: ["*"] }));
    expect(String(open.body.reject_reason)).toContain("allowUsers");
    const port = await plugin("NewProxy", secretProxy(c, s, key, { remote_port: 20060 }));
    expect(String(port.body.reject_reason)).toContain("远程端口");
    const ok = await plugin("NewProxy", secretProxy(c, s, key, { allow_users: [c.user] }));
    expect(ok.body).toMatchObject({ reject: false, unchange: false });
    expect((ok.body.content as { sk: string }).sk).toBe(key);
  });

  it("rotates: a new secret, written in both files; the old one is refused at NewProxy", async () => {
    const c = await customer();
    const s = (await create(c, { protocol: "sudp" })).body.data;
    const old = (await detail(c, s.tun_id)).body.data.secret_key!;
    const r = await rotate(c, s.tun_id);
    expect(r.body.code).toBe("SUCCESS");
    const key = r.body.data.secret_key!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(key).not.toBe(old);
    expect((await serving(c, s.tun_id)).body.data.toml).toContain(`secretKey = "${key}"`);
    expect((await visitor(c, s.tun_id)).body.data.toml).toContain(`secretKey = "${key}"`);
    const stale = await plugin("NewProxy", secretProxy(c, s, old));
    expect(stale.body).toMatchObject({ reject: true });
    expect((await plugin("NewProxy", secretProxy(c, s, key))).body).toMatchObject({ reject: false });
    // Only secret tunnels have one.
    const tcp = await rotate(c, c.tcp.tun_id);
    expect(tcp.status).toBe(400);
  });

  it("rotates blind for an API token that may write but not read the tunnel (review 6 F4)", async () => {
    const c = await customer();
    const s = (await create(c, { protocol: "stcp" })).body.data;
    const mint = async (scopes: string[]) =>
      (await t.api<{ token: string }>("POST", "/user/apiToken", { token: c.token, body: { name: "ci", scopes } })).body
        .data.token;
    const writeOnly = await rotate({ token: await mint(["tunnels:write"]) }, s.tun_id);
    expect(writeOnly.body.code).toBe("SUCCESS");
    expect(writeOnly.body.data.secret_key).toBeNull();
    const stored = (await detail(c, s.tun_id)).body.data.secret_key;
    expect(stored).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const both = await rotate({ token: await mint(["tunnels:read", "tunnels:write"]) }, s.tun_id);
    expect(both.body.data.secret_key).toBe((await detail(c, s.tun_id)).body.data.secret_key);
    expect(both.body.data.secret_key).not.toBe(stored);
  });
});

describe("访客防护 on secret tunnels", () => {
  it("applies to stcp, sudp and xtcp (frps asks NewUserConn per visitor frpc; xtcp: its relayed fallback)", async () => {
    const c = await customer();
    const applies: Record<string, boolean> = {};
    for (const protocol of ["stcp", "sudp", "xtcp"]) {
      const tun = (await create(c, { protocol })).body.data;
      const r = await t.api<{ applies: boolean }>("GET", `/user/tun/${tun.tun_id}/shield`, { token: c.token });
      applies[protocol] = r.body.data.applies;
      if (protocol !== "sudp") continue;
      const put = await t.api("PUT", `/user/tun/${tun.tun_id}/shield`, {
        token: c.token,
        body: { allow: [], deny: ["198.51.100.0/24"], rule_enabled: false, conns: 20, window_s: 60, ban_s: 3600 },
      });
      expect(put.body.code).toBe("SUCCESS");
      const visit = (addr: string) =>
        plugin("NewUserConn", {
          user: userInfo(c),
          proxy_name: `${c.user}.t_${tun.tun_id}`,
          proxy_type: "sudp",
          remote_addr: addr,
        });
      expect((await visit("198.51.100.9:40000")).body).toEqual({
        reject: true,
        reject_reason: expect.stringContaining("拒绝列表"),
      });
      expect((await visit("203.0.113.9:40000")).body).toEqual(ALLOW);
    }
    expect(applies).toEqual({ stcp: true, sudp: true, xtcp: true });
  });
});
