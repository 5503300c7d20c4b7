import http from "node:http";
import https from "node:https";
import net from "node:net";
import { REACH_LIMIT, type ReachReport, TunnelStatus, type TunnelView } from "@burrow/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeChain } from "../../../test/certs";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import type { ReachResolver } from "./names";
import { reachState } from "./reach.service";

/**
 * 外网检测 through the API, against a node on loopback: stand-ins for what frps serves (a remote
 * port, the http and https vhost ports) and a stub resolver. Another server on 127.0.0.2 stands
 * where a customer's name points and counts every connection it gets (there must be none).
 */
let t: TestApp;
let admin: string;
/** a node per tunnel (a remote port is one tunnel's on its node): all on loopback, alike */
let nodeFields: Record<string, unknown>;
const servers: net.Server[] = [];
/** connections the 127.0.0.2 trap got */
let trapped = 0;
/** connections the echo service (the tcp tunnels' live remote port) got */
let echoed = 0;
/** Host headers the node's http vhost port got */
const vhostHosts: string[] = [];
/** name → A records; a name without an entry does not exist */
const records = new Map<string, string[]>();

const FRP_404 = "<html><head><title>Not Found</title></head><body><p><em>Faithfully yours, frp.</em></p></body></html>";

const stub: ReachResolver = {
  async resolve4(name) {
    const a = records.get(name);
    if (!a) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return a;
  },
  async resolve6(name) {
    throw Object.assign(new Error(`no AAAA for ${name}`), { code: "ENODATA" });
  },
  async resolveCname(name) {
    throw Object.assign(new Error(`no CNAME for ${name}`), { code: "ENODATA" });
  },
};

async function listen(server: net.Server, host = "127.0.0.1", port = 0): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return (server.address() as net.AddressInfo).port;
}

/** A page per name, frp's 404 page for any other (as frps's vhost answers). */
const vhost = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const host = String(req.headers.host).split(":")[0];
  vhostHosts.push(host);
  if (["shop", "inner", "tls", "elsewhere", "burrow-check.wild"].some((n) => host === `${n}.example.com`)) {
    res.writeHead(200, { "content-type": "text/html" }).end("<title>店铺 &amp; 首页</title>");
  } else res.writeHead(404, { "content-type": "text/html" }).end(FRP_404);
};

let echoPort: number;
let closerPort: number;
let closedPort: number;

beforeAll(async () => {
  t = await createTestApp();
  openDomains(t);
  reachState.of(t.ctx).resolver = stub;
  admin = await t.adminToken();
  // Three neighbouring ports, the node's remote port range (its vhost ports lie outside it).
  for (let base = 40000 + Math.floor(Math.random() * 9000); ; base += 3) {
    try {
      // a live service: echoes (and keeps the connection open)
      echoPort = await listen(
        net.createServer((s) => {
          echoed++;
          s.pipe(s);
        }),
        "127.0.0.1",
        base,
      );
      // frps when frpc cannot reach the local service: accepts, then closes at once
      closerPort = await listen(
        net.createServer((s) => s.destroy()),
        "127.0.0.1",
        base + 1,
      );
      // a port nobody listens on
      closedPort = await listen(net.createServer(), "127.0.0.1", base + 2);
      await new Promise((r) => servers.pop()?.close(r));
      break;
    } catch {
      for (const s of servers.splice(0)) s.close();
    }
  }
  const httpPort = await listen(http.createServer(vhost));
  const chain = await makeChain(["tls.example.com"]);
  const httpsPort = await listen(https.createServer({ key: chain.leaf.keyPem, cert: chain.leaf.pem }, vhost));
  // the trap answers on the vhost ports of 127.0.0.2, where inner.example.com points
  for (const p of [httpPort, httpsPort])
    await listen(
      net.createServer((s) => {
        trapped++;
        s.destroy();
      }),
      "127.0.0.2",
      p,
    );
  nodeFields = {
    host: "127.0.0.1",
    vhost_http_port: httpPort,
    vhost_https_port: httpsPort,
    subdomain_host: "frp.example.net",
    port_min: echoPort,
    port_max: closedPort,
  };
  records.set("shop.example.com", ["127.0.0.1"]);
  records.set("tls.example.com", ["127.0.0.1"]);
  records.set("inner.example.com", ["127.0.0.2"]);
  records.set("elsewhere.example.com", ["203.0.114.7"]);
  // a node configured by name whose DNS answers loopback (split-horizon, dangling or hijacked)
  records.set("node-inner.example.net", ["127.0.0.1"]);
});

afterAll(async () => {
  for (const s of servers) s.close();
  await t?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const reach = (token: string, tunId: number) => t.api<ReachReport>("POST", `/user/tun/${tunId}/reach`, { token });

/** The tunnel's row as the plugin leaves it after NewProxy (1) or CloseProxy (2). */
const setStatus = (tunId: number, status: number) =>
  t.db.updateTable("tunnels").set({ status }).where("tun_id", "=", tunId).execute();

async function customerWith(body: Record<string, unknown>, status: number = TunnelStatus.Connected) {
  const c = await registerWithPlan(t, { tunnel_limit: 10, tunnel_peer_port_limit: 10 });
  const node = await createTestNode(t, nodeFields, admin);
  const tun: TunnelView = await createTestTunnel(t, c.token, { node_id: node.node_id, ...body });
  await setStatus(tun.tun_id, status);
  return { c, tun, node };
}

describe("外网检测 of a tcp tunnel", () => {
  it("up, with the service answering: reachable, the connect timed", async () => {
    const { c, tun } = await customerWith({ remote_port: echoPort });
    const r = await reach(c.token, tun.tun_id);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      tun_id: tun.tun_id,
      verdict: "ok",
      problems: [],
      node: { host: "127.0.0.1", addresses: ["127.0.0.1"] },
      connect: { address: "127.0.0.1", port: echoPort, ok: true },
      remaining: REACH_LIMIT - 1,
    });
    expect(r.body.data.duration_ms).toBeLessThan(10_000);
  });

  it("frps closing the visitor at once while frpc is connected: the local service refused", async () => {
    const { c, tun } = await customerWith({ remote_port: closerPort, local_port: 3306 });
    const r = await reach(c.token, tun.tun_id);
    expect(r.body.data.verdict).toBe("local_refused");
    expect(r.body.data.summary).toContain("127.0.0.1:3306");
  });

  it("nobody on the remote port and the tunnel offline: frpc not connected", async () => {
    const { c, tun } = await customerWith({ remote_port: closedPort }, TunnelStatus.Offline);
    const r = await reach(c.token, tun.tun_id);
    expect(r.body.data).toMatchObject({ verdict: "frpc_offline", connect: { ok: false } });
    expect(r.body.data.connect?.detail).toContain("连接被拒绝");
  });

  it("a node named by a host that resolves to loopback: unreachable, the address never contacted", async () => {
    const c = await registerWithPlan(t, { tunnel_limit: 10, tunnel_peer_port_limit: 10 });
    const node = await createTestNode(t, { ...nodeFields, host: "node-inner.example.net" }, admin);
    const tun = await createTestTunnel(t, c.token, { node_id: node.node_id, remote_port: echoPort });
    await setStatus(tun.tun_id, TunnelStatus.Connected);
    const before = echoed;
    const r = await reach(c.token, tun.tun_id);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      verdict: "unreachable",
      node: { host: "node-inner.example.net", addresses: [] },
      connect: null,
    });
    expect(r.body.data.summary).toBe(
      "节点地址 node-inner.example.net 解析到内网、回环或保留地址（未对其发起连接），外网无法访问",
    );
    expect(echoed).toBe(before);
  });

  it("a tunnel turned off is said so, without a probe", async () => {
    const { c, tun } = await customerWith({ remote_port: echoPort });
    await t.api("PATCH", "/user/tun", { token: c.token, body: { tun_id: tun.tun_id, enabled: false } });
    const r = await reach(c.token, tun.tun_id);
    expect(r.body.data).toMatchObject({ verdict: "disabled", connect: null });
  });
});

describe("外网检测 of a port range and of a secret tunnel", () => {
  it("a port range: its first port is connected to, and the detail says so", async () => {
    const { c, tun } = await customerWith({ remote_port: echoPort, remote_port_end: closerPort });
    const r = await reach(c.token, tun.tun_id);
    expect(r.body.data).toMatchObject({ verdict: "ok", connect: { port: echoPort, ok: true } });
    expect(r.body.data.connect?.detail).toContain(`端口范围 ${echoPort}–${closerPort}，检测首个端口`);
  });

  it("a secret tunnel opens no port: 400/10000 naming tunid, nothing counted", async () => {
    const { c, tun } = await customerWith({ protocol: "stcp" });
    const r = await reach(c.token, tun.tun_id);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 10000 });
    expect(r.body.msg).toContain("tunid");
    const counted = await t.db.selectFrom("reach_checks").select("id").where("uid", "=", c.uid).execute();
    expect(counted).toEqual([]);
  });
});

describe("外网检测 of an http(s) tunnel", () => {
  it("DNS right and the page up: status and title, through the node's vhost port with the name as Host", async () => {
    const { c, tun } = await customerWith({
      protocol: "http",
      custom_domains: ["shop.example.com"],
      subdomain: "myshop",
    });
    records.set("myshop.frp.example.net", ["127.0.0.1"]);
    const r = await reach(c.token, tun.tun_id);
    const d = r.body.data;
    expect(d.verdict).toBe("ok");
    expect(d.dns.map((x) => [x.name, x.ok])).toEqual([
      ["shop.example.com", true],
      ["myshop.frp.example.net", true],
    ]);
    expect(d.http[0]).toMatchObject({
      url: `http://shop.example.com:${nodeFields.vhost_http_port}/`,
      status: 200,
      title: "店铺 & 首页",
      cert: null,
    });
    expect(d.summary).toContain("店铺 & 首页");
  });

  it("a wildcard tunnel: a concrete name under it is resolved and requested (never the literal *), the fix is the wildcard's record", async () => {
    const { c, tun } = await customerWith({ protocol: "http", custom_domains: ["*.wild.example.com"] });
    vhostHosts.length = 0;
    records.delete("burrow-check.wild.example.com");
    const missing = (await reach(c.token, tun.tun_id)).body.data;
    expect(missing.verdict).toBe("dns_wrong");
    expect(missing.dns[0]).toMatchObject({
      name: "burrow-check.wild.example.com",
      ok: false,
      fix: { type: "CNAME", host: "*.wild.example.com", value: "frp.example.net" },
    });
    expect(missing.dns[0].problem).toContain("CNAME 记录 *.wild.example.com → frp.example.net");
    // the wildcard record answers the probe name: up, through the node with that name as Host
    records.set("burrow-check.wild.example.com", ["127.0.0.1"]);
    const d = (await reach(c.token, tun.tun_id)).body.data;
    expect(d.verdict).toBe("ok");
    expect(d.dns.map((x) => [x.name, x.ok])).toEqual([["burrow-check.wild.example.com", true]]);
    expect(d.http[0]).toMatchObject({
      url: `http://burrow-check.wild.example.com:${nodeFields.vhost_http_port}/`,
      status: 200,
      title: "店铺 & 首页",
    });
    expect(vhostHosts).toEqual(["burrow-check.wild.example.com", "burrow-check.wild.example.com"]);
    expect(vhostHosts.some((h) => h.includes("*"))).toBe(false);
  });

  it("a name resolving to a private address is reported with the record to fix, never contacted", async () => {
    const { c, tun } = await customerWith({ protocol: "http", custom_domains: ["inner.example.com"] });
    vhostHosts.length = 0;
    const r = await reach(c.token, tun.tun_id);
    const d = r.body.data;
    expect(d.verdict).toBe("dns_wrong");
    expect(d.dns[0]).toMatchObject({
      name: "inner.example.com",
      addresses: ["127.0.0.2"],
      ok: false,
      fix: { type: "CNAME", host: "inner.example.com", value: "frp.example.net" },
    });
    expect(d.dns[0].problem).toContain("内网、回环或保留地址 127.0.0.2");
    expect(d.problems[0]).toContain("CNAME 记录 inner.example.com → frp.example.net");
    // the request went to the node, with the name as Host; the address the name points at got nothing
    expect(vhostHosts).toEqual(["inner.example.com"]);
    expect(trapped).toBe(0);
  });

  it("a name pointing at another public address, or at nothing: dns_wrong with the fix", async () => {
    const { c, tun } = await customerWith({
      protocol: "http",
      custom_domains: ["elsewhere.example.com", "missing.example.com"],
    });
    const d = (await reach(c.token, tun.tun_id)).body.data;
    // the page itself answers through the node: the names are what is wrong
    expect(d.verdict).toBe("dns_wrong");
    expect(d.dns.map((x) => x.problem)).toEqual([
      expect.stringContaining("203.0.114.7，不是节点地址"),
      expect.stringContaining("missing.example.com 没有解析记录"),
    ]);
  });

  it("frp's 404 page: frpc not connected while offline, the local service when connected", async () => {
    const { c, tun } = await customerWith({ protocol: "http", subdomain: "gone" }, TunnelStatus.Offline);
    records.set("gone.frp.example.net", ["127.0.0.1"]);
    const off = (await reach(c.token, tun.tun_id)).body.data;
    expect(off).toMatchObject({ verdict: "frpc_offline", http: [{ status: 404, title: null }] });
    await setStatus(tun.tun_id, TunnelStatus.Connected);
    expect((await reach(c.token, tun.tun_id)).body.data.verdict).toBe("local_refused");
  });

  it("https: the certificate's expiry and why it is not trusted", async () => {
    const { c, tun } = await customerWith({ protocol: "https", custom_domains: ["tls.example.com"] });
    const d = (await reach(c.token, tun.tun_id)).body.data;
    expect(d.http[0]).toMatchObject({ status: 200, title: "店铺 & 首页" });
    const cert = d.http[0].cert;
    expect(cert).toMatchObject({ subject: "tls.example.com", trusted: false });
    expect(cert?.days_left).toBeGreaterThanOrEqual(89);
    expect(cert?.problem).toContain("证书不受信任");
    expect(d.verdict).toBe("ok");
    expect(d.problems).toEqual([expect.stringContaining("证书不受信任")]);
  });
});

describe("外网检测's limits", () => {
  it("another customer's tunnel is 404 and counts nothing", async () => {
    const { tun } = await customerWith({ remote_port: echoPort });
    const other = await registerWithPlan(t);
    const r = await reach(other.token, tun.tun_id);
    expect(r.status).toBe(404);
    expect(await t.db.selectFrom("reach_checks").selectAll().where("uid", "=", other.uid).execute()).toEqual([]);
  });

  it("an API token needs tunnels:write (a check spends the hourly quota and connects out): 403 with tunnels:read", async () => {
    const { c, tun } = await customerWith({ remote_port: closedPort }, TunnelStatus.Offline);
    const mint = async (scopes: string[]) =>
      (await t.api<{ token: string }>("POST", "/user/apiToken", { token: c.token, body: { name: "ci", scopes } })).body
        .data.token;
    const denied = await reach(await mint(["tunnels:read"]), tun.tun_id);
    expect(denied.status).toBe(403);
    expect(denied.body.msg).toContain("tunnels:write");
    expect(await t.db.selectFrom("reach_checks").selectAll().where("uid", "=", c.uid).execute()).toEqual([]);
    const allowed = await reach(await mint(["tunnels:write"]), tun.tun_id);
    expect([allowed.status, allowed.body.data.verdict]).toEqual([200, "frpc_offline"]);
  });

  it("10 an hour per customer, across tunnels; the hour over, again", async () => {
    // ports that answer at once (an echo is watched for 0.6 s)
    const { c, tun, node } = await customerWith({ remote_port: closedPort });
    const second = await createTestTunnel(t, c.token, { node_id: node.node_id, remote_port: closerPort });
    for (let i = 0; i < REACH_LIMIT; i++) {
      const r = await reach(c.token, i % 2 ? second.tun_id : tun.tun_id);
      expect(r.body.data.remaining).toBe(REACH_LIMIT - 1 - i);
    }
    const refused = await reach(c.token, tun.tun_id);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/请 3[56]\d\d 秒后再试/);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 3_600_000 + 1000 });
    expect((await reach(c.token, tun.tun_id)).status).toBe(200);
  });

  it("15 at once: exactly 10 run (counted under the customer's lock)", async () => {
    const { c, tun } = await customerWith({ remote_port: closedPort }, TunnelStatus.Offline);
    const all = await Promise.all(Array.from({ length: 15 }, () => reach(c.token, tun.tun_id)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(REACH_LIMIT);
    expect(all.filter((r) => r.status === 429)).toHaveLength(15 - REACH_LIMIT);
    const rows = await t.db.selectFrom("reach_checks").select("verdict").where("uid", "=", c.uid).execute();
    expect(rows.map((r) => r.verdict)).toEqual(Array(REACH_LIMIT).fill("frpc_offline"));
  });
});
