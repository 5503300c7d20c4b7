import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, type TaskMeta } from "vitest";
import { goParseFloat, parseBandwidth } from "./bandwidth";
import { FrpcClient, parseFrpcConfig } from "./frpc";
import { FrpsSim } from "./frps";
import { frpsOptionsFromToml } from "./frps-config";
import { PLUGIN_OPS } from "./plugin-client";
import { FrpConfigError } from "./strict-config";
import { parseToml, TomlError } from "./toml";

describe("TOML reader", () => {
  it("reads what frp configs use", () => {
    const t = parseToml(`
# comment
serverAddr = "node.example.net" # trailing comment
serverPort = 7_000
auth.token = 'lit\\eral'
metadatas.token = "a\\"b\\u00e9"
loginFailExit = false
ratio = 1.5
ops = ["Login", "NewProxy",
  "Ping", ] # multi-line, trailing comma
allowPorts = [{ start = 2000, end = 3000 }, { single = 3001 }]

[webServer]
port = 7500

[[proxies]]
name = "t_1"
transport.useEncryption = true

[[proxies]]
name = "t_2"
customDomains = ["a.example.com"]
`);
    expect(t).toEqual({
      serverAddr: "node.example.net",
      serverPort: 7000,
      auth: { token: "lit\\eral" },
      metadatas: { token: 'a"bé' },
      loginFailExit: false,
      ratio: 1.5,
      ops: ["Login", "NewProxy", "Ping"],
      allowPorts: [{ start: 2000, end: 3000 }, { single: 3001 }],
      webServer: { port: 7500 },
      proxies: [
        { name: "t_1", transport: { useEncryption: true } },
        { name: "t_2", customDomains: ["a.example.com"] },
      ],
    });
  });

  it("refuses broken documents with the line number", () => {
    expect(() => parseToml('a = "x"\na = "y"')).toThrow(TomlError);
    expect(() => parseToml('a = "x"\nb = ')).toThrow(/line 2/);
    expect(() => parseToml("a = 1979-05-27")).toThrow(TomlError);
    expect(() => parseToml('a = "unterminated')).toThrow(TomlError);
  });
});

/** A plugin server answering with whatever the test sets, recording each request. */
let plugin: Server;
let pluginUrl = "";
let answer: (op: string, body: Record<string, unknown>) => { status?: number; body: string } = () => ({
  body: '{"reject":false,"unchange":true}',
});
/** The plugin's answer that changes every NewProxy's content by `fields` and allows the rest unchanged. */
const modifyEveryProxy =
  (fields: Record<string, unknown>): typeof answer =>
  (op, body) =>
    op === "NewProxy"
      ? {
          body: JSON.stringify({ reject: false, unchange: false, content: { ...(body.content as object), ...fields } }),
        }
      : { body: '{"reject":false,"unchange":true}' };
const seen: { url: string; headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  plugin = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ url: req.url ?? "", headers: req.headers, body });
      const a = answer(String(body.op), body);
      res.writeHead(a.status ?? 200, { "content-type": "application/json" });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => plugin.listen(0, "127.0.0.1", r));
  pluginUrl = `http://127.0.0.1:${(plugin.address() as AddressInfo).port}/frp/handler`;
});
afterAll(() => new Promise<void>((r) => plugin.close(() => r())));
afterEach(() => {
  seen.length = 0;
  answer = () => ({ body: '{"reject":false,"unchange":true}' });
});

/** A started frpc of user "u" with one tcp proxy "p" on `remotePort`. */
async function tcpClient(s: FrpsSim, remotePort: number): Promise<FrpcClient> {
  const c = new FrpcClient(
    s,
    parseFrpcConfig(`user = "u"\n[[proxies]]\nname = "p"\ntype = "tcp"\nremotePort = ${remotePort}`),
  );
  await c.start();
  return c;
}

const sim = (extra: ConstructorParameters<typeof FrpsSim>[0] = {}) =>
  new FrpsSim({
    plugins: [{ name: "t", url: pluginUrl, ops: PLUGIN_OPS }],
    vhostHTTPPort: 80,
    subDomainHost: "frp.example.net",
    allowPorts: [{ start: 6000, end: 6100 }],
    ...extra,
  });

describe("plugin calls", () => {
  it("posts what frps posts: ?op=…&version=0.1.0, Go's headers, the envelope, snake_case with omitempty", async () => {
    const s = sim();
    const session = await s.login({ user: "alice", metas: { token: "tok" }, timestamp: 1753279200 });
    await session.newProxy({ name: "ssh", type: "tcp", remotePort: 6000 });
    const [login, newProxy] = seen;
    expect(login.url).toBe("/frp/handler?op=Login&version=0.1.0");
    expect(login.headers["content-type"]).toBe("application/json");
    expect(login.headers["user-agent"]).toBe("Go-http-client/1.1");
    expect(String(login.headers["x-frp-reqid"])).toMatch(/^[0-9a-f]{16}$/);
    expect(login.body).toEqual({
      version: "0.1.0",
      op: "Login",
      content: {
        version: "0.70.1",
        hostname: "sim-host",
        os: "linux",
        arch: "amd64",
        user: "alice",
        privilege_key: "7ad5f6875c64a23bd2a288033ae0a16b",
        timestamp: 1753279200,
        metas: { token: "tok" },
        client_spec: {},
        pool_count: 1,
        client_address: "203.0.113.7:51234",
      },
    });
    expect(Object.keys(login.body.content as object)).not.toContain("run_id");
    expect(newProxy.body).toEqual({
      version: "0.1.0",
      op: "NewProxy",
      content: {
        user: { user: "alice", metas: { token: "tok" }, run_id: session.runId },
        proxy_name: "alice.ssh",
        proxy_type: "tcp",
        remote_port: 6000,
      },
    });
  });

  it("applies reject, unchange, replace-on-missing-unchange, non-200 and type errors exactly", async () => {
    const s = sim();
    answer = () => ({ body: '{"reject":true,"reject_reason":"nope"}' });
    await expect(s.login({ user: "a" })).rejects.toThrow(/^nope$/);
    answer = () => ({ status: 500, body: "{}" });
    await expect(s.login({ user: "a" })).rejects.toThrow("send Login request to plugin error");
    answer = () => ({ body: '{"reject":false,"unchange":"false"}' });
    await expect(s.login({ user: "a" })).rejects.toThrow("send Login request to plugin error");
    answer = () => ({ body: "not json" });
    await expect(s.login({ user: "a" })).rejects.toThrow("send Login request to plugin error");

    // {} is not "allow": NewProxy content becomes an unnamed tcp proxy (fatedier/frp#2219).
    answer = (op) => ({ body: op === "NewProxy" ? "{}" : '{"reject":false,"unchange":true}' });
    const session = await s.login({ user: "a" });
    const r = await session.newProxy({ name: "ssh", type: "tcp", remotePort: 6001 });
    expect(r.proxyName).toBe("");
    expect(r.content.proxy_type).toBeUndefined();

    // a modified content is what frps builds the proxy from
    answer = modifyEveryProxy({ remote_port: 6050, bandwidth_limit: "1MB", bandwidth_limit_mode: "server" });
    const m = await session.newProxy({ name: "web", type: "tcp", remotePort: 6002 });
    expect(m.remoteAddr).toBe(":6050");
    expect(s.stats.get("a.web")?.content?.bandwidth_limit).toBe("1MB");
  });

  it("decodes a changed content as Go's json.Unmarshal does: a wrongly typed field fails the op", async () => {
    const s = sim();
    const session = await s.login({ user: "a" });
    const modify = (patch: string) => {
      answer = (op, body) =>
        op === "NewProxy"
          ? {
              body: `{"reject":false,"unchange":false,"content":{${patch},"proxy_name":"${(body.content as { proxy_name: string }).proxy_name}","proxy_type":"tcp"}}`,
            }
          : { body: '{"reject":false,"unchange":true}' };
    };
    for (const bad of [
      '"remote_port":"6003"',
      '"remote_port":6003.0',
      '"remote_port":6e3',
      '"remote_port":9223372036854775808',
      '"custom_domains":"x.com"',
      '"custom_domains":[5]',
      '"metas":{"k":1}',
      '"use_encryption":"true"',
      '"user":{"user":5}',
      '"bandwidth_limit":1',
    ]) {
      modify(bad);
      await expect([bad, await session.newProxy({ name: "p", type: "tcp" }).catch((e: Error) => e.message)]).toEqual([
        bad,
        "send NewProxy request to plugin error",
      ]);
    }
    // keys match fields whatever their case, unknown keys go, null leaves a field empty
    modify('"Remote_Port":6003,"bandwidth_LIMIT":"1MB","bandwidth_limit_mode":"server","nope":[1],"subdomain":null');
    const r = await session.newProxy({ name: "p", type: "tcp" });
    expect(r.remoteAddr).toBe(":6003");
    expect(r.content).toEqual({
      user: { user: "a", metas: null, run_id: session.runId },
      proxy_name: "a.p",
      proxy_type: "tcp",
      bandwidth_limit: "1MB",
      bandwidth_limit_mode: "server",
      remote_port: 6003,
    });
    // the envelope's own fields too
    answer = () => ({ body: '{"Reject":true,"REJECT_REASON":"no"}' });
    await expect(s.login({ user: "a" })).rejects.toThrow(/^no$/);
    answer = () => ({ body: '{"reject":false,"reject_reason":5}' });
    await expect(s.login({ user: "a" })).rejects.toThrow("send Login request to plugin error");
  });

  it("shows frpc a summary instead of the reason when detailedErrorsToClient is off", async () => {
    const s = sim({ detailedErrorsToClient: false });
    answer = () => ({ body: '{"reject":true,"reject_reason":"secret reason"}' });
    await expect(s.login({ user: "a" })).rejects.toThrow("register control error");
  });
});

describe("sessions, proxies and counters", () => {
  it("runs frpc's sequence: Login, NewWorkConn pool, NewProxy, Ping; NewUserConn for tcp only; CloseProxy on stop", async () => {
    const s = sim();
    const cfg = parseFrpcConfig(`
serverAddr = "127.0.0.1"
user = "u_1"
metadatas.token = "tok"
transport.heartbeatInterval = 30
[[proxies]]
name = "t_1"
type = "tcp"
localPort = 22
remotePort = 6010
[[proxies]]
name = "t_2"
type = "http"
localPort = 80
subdomain = "blog"
[[proxies]]
name = "t_3"
type = "udp"
localPort = 53
remotePort = 6011
[[proxies]]
name = "off"
type = "tcp"
enabled = false
`);
    const c = new FrpcClient(s, cfg);
    await c.start();
    await c.heartbeat();
    await c.visit("t_1", { bytesIn: 100, bytesOut: 200 });
    await c.visit("t_2", { bytesIn: 10, bytesOut: 20 });
    await c.visit("t_3", { bytesIn: 1, bytesOut: 2 });
    await s.settle();
    await c.stop();
    await s.settle();
    const ops = seen.map((x) => x.body.op);
    expect(ops.slice(0, 6)).toEqual(["Login", "NewWorkConn", "NewProxy", "NewProxy", "NewProxy", "Ping"]);
    expect(ops.filter((o) => o === "NewUserConn")).toHaveLength(1);
    expect(ops.filter((o) => o === "CloseProxy")).toHaveLength(3);
    const uc = seen.find((x) => x.body.op === "NewUserConn")!;
    expect(uc.body.content).toEqual({
      user: { user: "u_1", metas: { token: "tok" }, run_id: c.runId },
      proxy_name: "u_1.t_1",
      proxy_type: "tcp",
      remote_addr: "198.51.100.9:40112",
    });
    expect(s.stats.get("u_1.t_1")).toMatchObject({ online: false, trafficIn: [100, 0, 0, 0, 0, 0, 0] });
  });

  it("enforces frps's own rules: allowPorts, used ports, names, vhost routes, subdomain host", async () => {
    const s = sim();
    const a = await s.login({ user: "a" });
    const b = await s.login({ user: "b" });
    await a.newProxy({ name: "x", type: "tcp", remotePort: 6000 });
    await expect(b.newProxy({ name: "y", type: "tcp", remotePort: 6000 })).rejects.toThrow("port already used");
    await expect(b.newProxy({ name: "y", type: "tcp", remotePort: 7000 })).rejects.toThrow("port not allowed");
    await expect(b.newProxy({ name: "y", type: "udp", remotePort: 7000 })).rejects.toThrow(
      "acquire port 7000 error: port not allowed",
    );
    await a.newProxy({ name: "w", type: "http", customDomains: ["a.example.com"] });
    await expect(b.newProxy({ name: "w", type: "http", customDomains: ["a.example.com"] })).rejects.toThrow(
      "router config conflict",
    );
    await expect(b.newProxy({ name: "z", type: "http", customDomains: ["x.frp.example.net"] })).rejects.toThrow(
      "should not belong to subdomain host",
    );
    await expect(b.newProxy({ name: "s", type: "https", subdomain: "q" })).rejects.toThrow("vhost https port");
    const random = await b.newProxy({ name: "r", type: "tcp" });
    expect(Number(random.remoteAddr.slice(1))).toBeGreaterThanOrEqual(6000);
  });

  it("answers a refused Ping with Pong{error} only: frps closes nothing, lastPing stays", async () => {
    let now = 1_000_000;
    const s = sim({ clock: () => new Date(now), heartbeatTimeout: 60 });
    const session = await s.login({ user: "u" });
    await session.newProxy({ name: "p", type: "tcp", remotePort: 6021 });
    const conn = await s.visit("u.p", { bytesIn: 5, hold: true });
    answer = (op) => ({
      body: op === "Ping" ? '{"reject":true,"reject_reason":"banned"}' : '{"reject":false,"unchange":true}',
    });
    now += 50_000;
    await expect(session.ping()).rejects.toThrow(/^banned$/);
    await s.settle();
    // a client that ignores the Pong's error keeps its session, proxy and connection
    expect(session.online).toBe(true);
    expect(s.stats.get("u.p")).toMatchObject({ online: true, curConns: 1 });
    expect(seen.map((x) => x.body.op)).not.toContain("CloseProxy");
    expect(conn.open).toBe(true);
    // … until heartbeatTimeout: the refused Ping did not count as one
    now += 11_000;
    expect(await s.checkHeartbeats()).toEqual([session]);
    await s.settle();
    expect(session.online).toBe(false);
    expect(seen.at(-1)?.body.op).toBe("CloseProxy");
    // frps closed the control, not the connection in flight
    expect(conn.open).toBe(true);
    conn.close();
    expect(s.stats.get("u.p")).toMatchObject({ online: false, curConns: 0, trafficIn: [5, 0, 0, 0, 0, 0, 0] });
    await s.stop();
  });

  it("enforces heartbeatTimeout as the version does: before 0.58 only with tcpMux off", async () => {
    let now = 1_000_000;
    const clock = () => new Date(now);
    const cases = [
      { version: "0.52.3", tcpMux: true, timeout: 90, enforced: false },
      { version: "0.57.0", tcpMux: false, timeout: 90, enforced: true },
      { version: "0.58.0", tcpMux: true, timeout: -1, enforced: false },
      { version: "0.61.2", tcpMux: true, heartbeatTimeout: 60, timeout: 60, enforced: true },
      { version: "0.52.3", tcpMux: true, heartbeatTimeout: 60, timeout: 60, enforced: false },
    ];
    for (const c of cases) {
      const s = sim({ clock, version: c.version, tcpMux: c.tcpMux, heartbeatTimeout: c.heartbeatTimeout });
      expect([c.version, s.heartbeatTimeout, s.heartbeatEnforced]).toEqual([c.version, c.timeout, c.enforced]);
      const session = await s.login({ user: "u" });
      now += 30_000;
      await session.ping();
      now += c.timeout * 1000;
      expect(await s.checkHeartbeats()).toEqual([]); // exactly the timeout is not past it
      now += 1;
      expect((await s.checkHeartbeats()).length).toBe(c.enforced ? 1 : 0);
      expect(session.online).toBe(!c.enforced);
      await s.stop();
    }
  });

  it("drops the session when a Ping is refused, and the client logs in again with its run id", async () => {
    const s = sim();
    const c = await tcpClient(s, 6020);
    const runId = c.runId;
    answer = (op) => ({
      body: op === "Ping" ? '{"reject":true,"reject_reason":"banned"}' : '{"reject":false,"unchange":true}',
    });
    expect(await c.heartbeat()).toBe(false);
    expect(c.lastError).toBe("banned");
    await s.settle();
    expect(seen.at(-1)?.body.op).toBe("CloseProxy");
    expect(s.stats.get("u.p")?.online).toBe(false);
    answer = () => ({ body: '{"reject":false,"unchange":true}' });
    expect(await c.reconnect()).toBe(true);
    const relogin = seen.filter((x) => x.body.op === "Login").at(-1)!;
    expect((relogin.body.content as { run_id: string }).run_id).toBe(runId);
    expect(s.stats.get("u.p")?.online).toBe(true);
  });

  it("rotates daily buckets at midnight and forgets everything on restart", async () => {
    const s = sim();
    const c = await tcpClient(s, 6030);
    await c.visit("p", { bytesIn: 5, bytesOut: 7 });
    s.rollover();
    await c.visit("p", { bytesIn: 1, bytesOut: 1 });
    expect(s.stats.get("u.p")?.trafficIn.slice(0, 2)).toEqual([1, 5]);
    await s.restart();
    expect(s.stats.size).toBe(0);
    await c.reconnect();
    expect(s.stats.get("u.p")?.trafficIn[0]).toBe(0);
  });
});

describe("long connections", () => {
  it("counts a connection that never closes only when frpc drops its session (a refused Ping)", async () => {
    const s = sim();
    const c = await tcpClient(s, 6050);
    const conn = await c.visit("p", { bytesIn: 10, bytesOut: 10, hold: true });
    for (let i = 0; i < 5; i++) conn.transfer(1000, 2000);
    // Open: frps shows it in curConns, its bytes nowhere.
    expect(s.stats.get("u.p")).toMatchObject({ curConns: 1, trafficIn: [0, 0, 0, 0, 0, 0, 0] });
    answer = (op) => ({
      body: op === "Ping" ? '{"reject":true,"reject_reason":"kick"}' : '{"reject":false,"unchange":true}',
    });
    expect(await c.heartbeat()).toBe(false);
    await s.settle();
    expect(s.stats.get("u.p")).toMatchObject({ curConns: 0, online: false });
    expect(s.stats.get("u.p")?.trafficIn[0]).toBe(5010);
    expect(s.stats.get("u.p")?.trafficOut[0]).toBe(10010);
    conn.transfer(1, 1); // closed: nothing more
    expect(s.stats.get("u.p")?.trafficIn[0]).toBe(5010);
  });

  it("loses the bytes of connections open at a crash, as frps does", async () => {
    const s = sim();
    const c = await tcpClient(s, 6051);
    const conn = await c.visit("p", { hold: true });
    conn.transfer(1000, 1000);
    await s.restart();
    await c.reconnect();
    conn.closeLocal();
    expect(s.stats.get("u.p")?.trafficIn[0]).toBe(0);
    expect(s.stats.get("u.p")?.curConns).toBe(0);
  });

  it("keeps connections open when their proxy closes: counted when they end, under the name", async () => {
    const s = sim();
    const session = await s.login({ user: "u" });
    await session.newProxy({ name: "p", type: "tcp", remotePort: 6052 });
    const conn = await s.visit("u.p", { bytesIn: 10, bytesOut: 20, hold: true });
    session.closeProxy("u.p");
    await s.settle();
    expect(s.stats.get("u.p")).toMatchObject({ online: false, curConns: 1, trafficIn: [0, 0, 0, 0, 0, 0, 0] });
    await session.newProxy({ name: "p", type: "tcp", remotePort: 6052 });
    expect(s.stats.get("u.p")?.curConns).toBe(1);
    conn.close();
    expect(s.stats.get("u.p")).toMatchObject({ online: true, curConns: 0, trafficIn: [10, 0, 0, 0, 0, 0, 0] });
  });
});

describe("http", () => {
  it("reuses pooled work connections and counts their bytes only when the pool closes them", async () => {
    const s = sim();
    const session = await s.login({ user: "u" });
    await session.newProxy({ name: "w", type: "http", subdomain: "w" });
    await session.fillPool();
    const pool = () => seen.filter((x) => x.body.op === "NewWorkConn").length;
    const before = pool();
    await s.visit("u.w", { bytesIn: 10, bytesOut: 100 });
    await s.visit("u.w", { bytesIn: 20, bytesOut: 200 });
    await s.settle();
    // one work connection taken (one refill asked), still open, nothing counted yet
    expect(pool() - before).toBe(1);
    expect(s.stats.get("u.w")).toMatchObject({ curConns: 1, trafficIn: [0, 0, 0, 0, 0, 0, 0] });
    const busy = await s.visit("u.w", { bytesIn: 1, hold: true });
    await s.visit("u.w", { bytesIn: 2 }); // the pooled one is busy: a second connection
    expect(s.stats.get("u.w")?.curConns).toBe(2);
    busy.close();
    s.expireIdleHttp(); // IdleConnTimeout
    expect(s.stats.get("u.w")).toMatchObject({ curConns: 0, trafficIn: [33, 0, 0, 0, 0, 0, 0] });
    expect(s.stats.get("u.w")?.trafficOut[0]).toBe(300);
    // frpc dropping its session closes the pooled ones too
    await s.visit("u.w", { bytesIn: 4 });
    session.dropConnections();
    expect(s.stats.get("u.w")?.trafficIn[0]).toBe(37);
  });
});

describe("restarts", () => {
  it("sends no CloseProxy, clean stop or crash (frps has no signal handler)", async () => {
    const s = sim();
    const c = await tcpClient(s, 6053);
    await s.restart();
    await s.settle();
    expect(seen.map((x) => x.body.op)).not.toContain("CloseProxy");
    expect(c.session).toBeNull();
    expect(s.stats.size).toBe(0);
  });
});

describe("bandwidth limits", () => {
  it("parses bandwidth_limit as frp does: what it cannot parse is no limit at all", () => {
    expect(parseBandwidth("488.28125KB")).toEqual({ text: "488.28125KB", bytes: 500_000 });
    expect(parseBandwidth(" 1MB ")).toEqual({ text: "1MB", bytes: 1024 * 1024 });
    expect(parseBandwidth("1e1KB")).toEqual({ text: "1e1KB", bytes: 10240 });
    expect(parseBandwidth("0x1p4KB")?.bytes).toBe(16 * 1024);
    expect(parseBandwidth("0.0001KB")).toBeNull(); // int64(0.1) = 0
    for (const bad of ["", "1mb", "1 MB", "1GB", "100", "-1MB", "MB", "1_0KB", "infKB", "NaNMB", "1e400MB", "1.2.3KB"])
      expect([bad, parseBandwidth(bad)]).toEqual([bad, null]);
    expect(goParseFloat("1_0")).toBeNull();
    expect(goParseFloat("0x_1p0")).toBe(1);
    expect(goParseFloat(".5")).toBe(0.5);
  });

  it("enforces a server-mode limit with one token bucket per proxy (rate = burst), both directions", async () => {
    let now = 0;
    const s = sim({ clock: () => new Date(now) });
    const session = await s.login({ user: "u" });
    answer = modifyEveryProxy({ bandwidth_limit: "1KB", bandwidth_limit_mode: "server" });
    await session.newProxy({ name: "p", type: "tcp", remotePort: 6060 });
    const bucket = s.stats.get("u.p")?.limiter;
    expect(bucket?.bytesPerSecond).toBe(1024);
    expect(bucket?.reserve(1024)).toBe(0); // the burst
    expect(bucket?.reserve(512)).toBe(500); // in or out, the same bucket
    now += 1500;
    expect(bucket?.reserve(1024)).toBe(0);
    // a limit frps cannot parse, or a client-mode one, is no limit on frps
    for (const [n, [limit, mode]] of [
      ["1 KB", "server"],
      ["1KB", "client"],
      ["1KB", ""],
    ].entries()) {
      answer = modifyEveryProxy({ bandwidth_limit: limit, bandwidth_limit_mode: mode });
      await session.newProxy({
        name: `q${limit}${mode}`,
        type: "tcp",
        remotePort: 6061 + n,
      });
      expect(s.stats.get(`u.q${limit}${mode}`)?.limiter).toBeNull();
    }
  });

  it("takes the time the limit allows, and a limited proxy never passes the visitor's close on", async () => {
    const s = sim();
    const session = await s.login({ user: "u" });
    answer = modifyEveryProxy({ bandwidth_limit: "100KB", bandwidth_limit_mode: "server" });
    await session.newProxy({ name: "p", type: "tcp", remotePort: 6070 });
    const started = Date.now();
    // burst 100 KB, then 20 KB more at 100 KB/s: 200 ms
    await s.visit("u.p", { bytesIn: 60 * 1024, bytesOut: 60 * 1024 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const conn = await s.visit("u.p", { bytesIn: 1, bytesOut: 2, hold: true });
    conn.close(); // the visitor leaves: frps keeps the work connection, uncounted
    expect(conn.open).toBe(true);
    expect(s.stats.get("u.p")).toMatchObject({ curConns: 1, trafficIn: [60 * 1024, 0, 0, 0, 0, 0, 0] });
    conn.closeLocal(); // the local service closes it
    expect(s.stats.get("u.p")).toMatchObject({ curConns: 0, trafficIn: [60 * 1024 + 1, 0, 0, 0, 0, 0, 0] });
  });
});

describe("dashboard", () => {
  it("answers scripted bodies, delays and dripping bodies for tests of a hostile frps", async () => {
    const s = sim({ webServer: { port: 0 }, authFailDelayMs: 0 });
    await s.start();
    try {
      s.dashboardScript = (path) =>
        path === "/api/serverinfo"
          ? { body: (b) => ({ ...(b as object), totalTrafficIn: "1e300" }), delayMs: 50 }
          : path === "/api/proxy/tcp"
            ? { dripBytes: 100_000, dripChunk: 10_000 }
            : undefined;
      const started = Date.now();
      const info = (await (await fetch(`${s.dashboardUrl}/api/serverinfo`)).json()) as Record<string, unknown>;
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      expect(info.totalTrafficIn).toBe("1e300");
      expect(info.bindPort).toBe(7000);
      const drip = await (await fetch(`${s.dashboardUrl}/api/proxy/tcp`)).text();
      expect(drip.length).toBeGreaterThan(100_000);
      expect(JSON.parse(drip)).toMatchObject({ proxies: [] });
      s.dashboardScript = null;
      expect(
        ((await (await fetch(`${s.dashboardUrl}/api/serverinfo`)).json()) as Record<string, unknown>).totalTrafficIn,
      ).toBe(0);
    } finally {
      await s.stop();
    }
  });

  it("serves the v1 API behind basic auth, /healthz open, errors as frps writes them", async () => {
    const s = sim({ webServer: { port: 0, user: "admin", password: "pw" }, authFailDelayMs: 0 });
    await s.start();
    try {
      const c = await tcpClient(s, 6040);
      const held = await c.visit("p", { bytesIn: 10, bytesOut: 20, hold: true });
      const auth = { authorization: `Basic ${Buffer.from("admin:pw").toString("base64")}` };
      const get = (path: string, headers: Record<string, string> = auth) =>
        fetch(`${s.dashboardUrl}${path}`, { headers });

      expect((await get("/healthz", {})).status).toBe(200);
      const denied = await get("/api/serverinfo", {});
      expect(denied.status).toBe(401);
      expect(denied.headers.get("www-authenticate")).toBe('Basic realm="Restricted"');
      expect(await denied.text()).toBe("Unauthorized\n");

      const info = await (await get("/api/serverinfo")).json();
      expect(info).toMatchObject({
        version: "0.70.1",
        bindPort: 7000,
        curConns: 1,
        clientCounts: 1,
        allowPortsStr: "6000-6100",
      });
      const list = await (await get("/api/proxy/tcp")).json();
      expect(list.proxies[0]).toMatchObject({
        name: "u.p",
        user: "u",
        clientID: c.runId,
        todayTrafficIn: 0,
        curConns: 1,
        status: "online",
        conf: { name: "u.p", type: "tcp", remotePort: 6040, localIP: "127.0.0.1", plugin: null },
      });
      held.close();
      const after = await (await get("/api/proxies/u.p")).json();
      expect(after).toMatchObject({ todayTrafficIn: 10, todayTrafficOut: 20, curConns: 0 });
      expect(await (await get("/api/traffic/u.p")).json()).toEqual({
        name: "u.p",
        trafficIn: [10, 0, 0, 0, 0, 0, 0],
        trafficOut: [20, 0, 0, 0, 0, 0, 0],
      });
      const missing = await get("/api/traffic/nope");
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ Code: 404, Msg: "no proxy info found" });
      expect((await (await get("/api/proxy/xtcp")).json()).proxies).toEqual([]);
      expect((await get("/nope")).status).toBe(404);
    } finally {
      await s.stop();
    }
  });

  it("answers with the keys of the version: snake_case ≤ 0.52.0, camelCase with clientVersion to 0.66, user and clientID from 0.67", async () => {
    for (const [version, proxyKeys, status] of [
      ["0.52.0", ["name", "conf", "client_version", "today_traffic_in"], 404],
      ["0.61.2", ["name", "conf", "clientVersion", "todayTrafficIn"], 404],
      ["0.67.0", ["name", "conf", "user", "clientID", "clientVersion", "todayTrafficIn"], 200],
      ["0.70.1", ["name", "conf", "user", "clientID", "todayTrafficIn"], 200],
    ] as const) {
      const s = sim({ webServer: { port: 0 }, version });
      await s.start();
      try {
        const session = await s.login({ user: "u", version: "0.61.2" });
        await session.newProxy({ name: "p", type: "tcp", remotePort: 6090 });
        const info = await fetch(`${s.dashboardUrl}/api/serverinfo`);
        const body = await info.text();
        const old = status === 404;
        expect(info.headers.get("content-type")).toBe(old ? "text/plain; charset=utf-8" : "application/json");
        expect(body.endsWith("\n")).toBe(!old);
        expect(JSON.parse(body)).toHaveProperty(version === "0.52.0" ? "bind_port" : "bindPort", 7000);
        expect(JSON.parse(body).version).toBe(version);
        const list = (await (await fetch(`${s.dashboardUrl}/api/proxy/tcp`)).json()) as { proxies: object[] };
        expect(Object.keys(list.proxies[0]).slice(0, proxyKeys.length)).toEqual(proxyKeys);
        expect((await fetch(`${s.dashboardUrl}/api/clients`)).status).toBe(status);
        const missing = await fetch(`${s.dashboardUrl}/api/traffic/nope`);
        expect(await missing.text()).toBe(old ? "no proxy info found" : '{"Code":404,"Msg":"no proxy info found"}\n');
      } finally {
        await s.stop();
      }
    }
  });

  it("reads a Burrow frps.toml: plugins, ports, dashboard", () => {
    const o = frpsOptionsFromToml(`
bindPort = 7000
vhostHTTPPort = 8081
subDomainHost = "frp.localhost"
allowPorts = [{ start = 10000, end = 20000 }]
webServer.addr = "127.0.0.1"
webServer.port = 7500
webServer.user = "admin"
webServer.password = "pw"
[[httpPlugins]]
name = "burrow"
addr = "127.0.0.1:8080"
path = "/api/frp/plugin/1/secret"
ops = ["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"]
`);
    expect(o.plugins).toEqual([
      { name: "burrow", url: "http://127.0.0.1:8080/api/frp/plugin/1/secret", ops: [...PLUGIN_OPS] },
    ]);
    expect(o.webServer).toEqual({ addr: "127.0.0.1", port: 7500, user: "admin", password: "pw" });
    expect(o.allowPorts).toEqual([{ start: 10000, end: 20000 }]);
    expect(() => frpsOptionsFromToml('[[httpPlugins]]\naddr = "x"\npath = "/"\nops = ["login"]')).toThrow(
      "invalid http plugin ops",
    );
  });
});

// Real frp (to cross-check the simulator against), when scripts have downloaded it.
const FRP_BIN = path.resolve(__dirname, "../../../.cache/frp/v0.70.1");
const haveFrp = fs.existsSync(path.join(FRP_BIN, "frps")) && fs.existsSync(path.join(FRP_BIN, "frpc"));
/** Skipped without it; meta.skipReason is what scripts/test.mjs prints for it. */
const REAL_FRP = {
  skip: !haveFrp,
  meta: {
    skipReason: `no real frp 0.70.1 in ${path.relative(process.cwd(), FRP_BIN)} (tools/frp/build.sh builds it)`,
  } as TaskMeta,
};
/** `frps|frpc verify -c file`: "" when the file is accepted, else frp's first output line. */
function frpVerify(bin: "frps" | "frpc", toml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "frp-verify-"));
  const file = path.join(dir, `${bin}.toml`);
  fs.writeFileSync(file, toml);
  try {
    execFileSync(path.join(FRP_BIN, bin), ["verify", "-c", file], { stdio: "pipe", timeout: 10_000 });
    return "";
  } catch (err) {
    return String((err as { stdout?: Buffer }).stdout ?? "")
      .trim()
      .split("\n")[0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const simError = (f: () => unknown): string => {
  try {
    f();
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

// Burrow's own builders (apps/server), so every key Burrow writes is checked against frp's key set.
const serverModule = (rel: string) =>
  import(/* @vite-ignore */ new URL(`../../../apps/server/src/modules/${rel}`, import.meta.url).href);

const FRPS_OK = `bindPort = 7000
[transport]
heartbeatTimeout = 60
`;
const FRPC_OK = `serverAddr = "127.0.0.1"
user = "u"
[[proxies]]
name = "t_1"
type = "https"
customDomains = ["a.example.com"]
[proxies.plugin]
type = "https2http"
localAddr = "127.0.0.1:8080"
crtPath = "./certs/a.example.com/fullchain.pem"
keyPath = "./certs/a.example.com/privkey.pem"
hostHeaderRewrite = "127.0.0.1"
requestHeaders.set.x-from = "frp"
`;

describe("strict config loading (frp --strict_config, on by default since 0.55.0)", () => {
  const frpsCases: [string, string, string][] = [
    ["top level", `${FRPS_OK}bindPorts = 1\n`, 'json: unknown field "bindPorts"'],
    ["transport", `${FRPS_OK}heartbeatTimeOut2 = 1\n`, 'json: unknown field "heartbeatTimeOut2"'],
    ["webServer", `${FRPS_OK}[webServer]\nport = 7500\npasswd = "x"\n`, 'json: unknown field "passwd"'],
    ["webServer.tls", `${FRPS_OK}[webServer.tls]\ncertFile = "a"\ncert = "b"\n`, 'json: unknown field "cert"'],
    ["auth", `${FRPS_OK}[auth]\ntoken = "t"\ntokens = "t"\n`, 'json: unknown field "tokens"'],
    ["log", `${FRPS_OK}[log]\nlevel = "info"\nlevl = "x"\n`, 'json: unknown field "levl"'],
    ["allowPorts", `allowPorts = [{ start = 1, stop = 2 }]\n`, 'json: unknown field "stop"'],
    [
      "[[httpPlugins]]",
      `${FRPS_OK}[[httpPlugins]]\nname = "b"\naddr = "127.0.0.1:1"\npath = "/"\nops = ["Login"]\nsecret = "s"\n`,
      'json: unknown field "secret"',
    ],
  ];
  it.each(frpsCases)("frps.toml: an unknown key in %s is refused, named", (_, toml, message) => {
    expect(simError(() => frpsOptionsFromToml(toml))).toBe(message);
    expect(() => frpsOptionsFromToml(toml)).toThrow(FrpConfigError);
  });

  const proxy = (extra: string) =>
    `user = "u"\n[[proxies]]\nname = "p"\ntype = "tcp"\nlocalPort = 22\nremotePort = 6000\n${extra}`;
  const frpcCases: [string, string, string][] = [
    ["top level", `${FRPC_OK.replace('user = "u"', 'user = "u"\nusr = "v"')}`, 'json: unknown field "usr"'],
    ["transport", `[transport]\nheartbeatInterval = 30\npoolcount2 = 1\n`, 'json: unknown field "poolcount2"'],
    ["auth", `[auth]\ntoken = "t"\nsecret = "s"\n`, 'json: unknown field "secret"'],
    ["log", `[log]\nto = "console"\nfile = "x"\n`, 'json: unknown field "file"'],
    [
      "[[proxies]]",
      proxy('httpUser = "u"\n'),
      'decode proxy at index 0: unmarshal ProxyConfig error: json: unknown field "httpUser"',
    ],
    [
      "a proxy's transport",
      proxy("transport.useEncrypion = true\n"),
      'decode proxy at index 0: unmarshal ProxyConfig error: json: unknown field "useEncrypion"',
    ],
    [
      "[proxies.plugin]",
      FRPC_OK.replace('localAddr = "127.0.0.1:8080"', 'localAddr = "127.0.0.1:8080"\nlocalPath = "/"'),
      'decode proxy at index 0: unmarshal proxy plugin error: unmarshal ClientPluginOptions error: json: unknown field "localPath"',
    ],
    [
      "the plugin's requestHeaders",
      `${FRPC_OK}requestHeaders.del = ["x"]\n`,
      'decode proxy at index 0: unmarshal proxy plugin error: unmarshal ClientPluginOptions error: json: unknown field "del"',
    ],
  ];
  it.each(frpcCases)("frpc.toml: an unknown key in %s is refused, named", (_, toml, message) => {
    expect(simError(() => parseFrpcConfig(toml))).toBe(message);
  });

  it("matches Go: case-insensitive keys (read as frp spells them), first unknown in sorted order, frp 0.61.2's order", () => {
    expect(frpsOptionsFromToml("BINDPORT = 7100\n[WebServer]\nPort = 7501").bindPort).toBe(7100);
    expect(frpsOptionsFromToml("BINDPORT = 7100\n[WebServer]\nPort = 7501").webServer?.port).toBe(7501);
    expect(simError(() => frpsOptionsFromToml("zz = 1\naa = 1\n[transport]\nbb = 1"))).toBe('json: unknown field "aa"');
    // 0.70.1 decodes the common part first; 0.61.2's proxy decoder fails hard, before a saved unknown key.
    const both = proxy("bogus = 1\n").replace('user = "u"', 'user = "u"\nauser = 1');
    expect(simError(() => parseFrpcConfig(both))).toBe('json: unknown field "auser"');
    expect(simError(() => parseFrpcConfig(both, "0.61.2"))).toBe(
      'unmarshal ProxyConfig error: json: unknown field "bogus"',
    );
    // Keys by version: proxies' `enabled` and clientID came after 0.61.2; 0.52 ignores unknown keys.
    expect(simError(() => parseFrpcConfig(proxy("enabled = true\n"), "0.61.2"))).toBe(
      'unmarshal ProxyConfig error: json: unknown field "enabled"',
    );
    expect(parseFrpcConfig(proxy("enabled = true\n")).proxies[0].enabled).toBe(true);
    expect(parseFrpcConfig(proxy("bogus = 1\n"), "0.52.3").proxies).toHaveLength(1);
    expect(frpsOptionsFromToml("bogus = 1", "0.54.0").bindPort).toBe(7000);
    expect(simError(() => parseFrpcConfig(proxy("").replace('"tcp"', '"tpc"')))).toBe(
      "decode proxy at index 0: unknown proxy type: tpc",
    );
  });

  it("accepts every key Burrow's own frps.toml and frpc.toml builders write", async () => {
    const { buildFrpsToml } = await serverModule("nodes/frps-config.ts");
    const { buildFrpcToml } = await serverModule("tunnels/frpc-config.ts");
    const node = {
      node_id: 1,
      name: "n",
      net_type_id: 1,
      host: "203.0.113.5",
      bind_port: 7000,
      vhost_http_port: 80,
      vhost_https_port: 443,
      subdomain_host: "frp.example.com",
      port_min: 10000,
      port_max: 20000,
      api_addr: "https://203.0.113.5:7500",
      api_user: "admin",
      api_password: "pw",
      plugin_secret: "s",
    };
    const frps = buildFrpsToml(node, "https://burrow.example.com/base");
    for (const key of ["webServer.tls.certFile", "tlsVerify", "allowPorts", "detailedErrorsToClient"])
      expect(frps).toContain(key);
    const tunnel = (over: Record<string, unknown>) => ({
      tun_id: 1,
      tun_name: "t",
      protocol: "tcp",
      local_ip: "127.0.0.1",
      local_port: 8080,
      remote_port: null,
      subdomain: null,
      custom_domains: "[]",
      addon: "{}",
      use_encryption: 1,
      use_compression: 1,
      ...over,
    });
    const frpc = buildFrpcToml({
      node,
      uid: 7,
      frpToken: "tok",
      tunnels: [
        tunnel({ tun_id: 1, remote_port: 10001 }),
        tunnel({
          tun_id: 2,
          protocol: "http",
          subdomain: "blog",
          custom_domains: '["blog.example.com"]',
          addon: JSON.stringify({ locations: ["/"], http_user: "u", http_password: "p", host_header_rewrite: "h" }),
        }),
        tunnel({ tun_id: 3, protocol: "https", custom_domains: '["s.example.com"]' }),
      ],
      certDomains: new Map([[3, "s.example.com"]]),
    });
    for (const key of ["locations", "httpUser", "transport.useEncryption", "metadatas.tunnel_id", "[proxies.plugin]"])
      expect(frpc).toContain(key);
    expect(simError(() => frpsOptionsFromToml(frps))).toBe("");
    expect(simError(() => parseFrpcConfig(frpc))).toBe("");
    expect(parseFrpcConfig(frpc).proxies.map((p) => p.name)).toEqual(["t_1", "t_2", "t_3"]);
    if (haveFrp) {
      expect(frpVerify("frps", frps.replace(/^webServer\.tls.*$/gm, ""))).toBe("");
      expect(frpVerify("frpc", frpc)).toBe("");
    }
  });

  it("refuses the same keys, with the same message, as real frps/frpc 0.70.1 verify", REAL_FRP, () => {
    for (const [, toml, message] of frpsCases) expect(frpVerify("frps", toml)).toBe(message);
    for (const [, toml, message] of frpcCases) expect(frpVerify("frpc", toml)).toBe(message);
    expect(frpVerify("frps", FRPS_OK)).toBe("");
    expect(frpVerify("frpc", FRPC_OK)).toBe("");
  });
});
