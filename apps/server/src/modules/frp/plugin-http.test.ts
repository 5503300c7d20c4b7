import http from "node:http";
import type { AdminNodeDetail, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { frpRuntime, pluginLogger } from "./frp.routes";
import { PluginFastPath } from "./plugin-http";

/**
 * The plugin's fast path (plugin-http.ts) answers frps before Fastify routes the request. Every
 * request below is sent twice over a socket — as frps sends it (the fast path, or Fastify when the
 * fast path passes it on) and chunked (always Fastify's route) — and must get the same answer,
 * headers included.
 */
let t: TestApp;
let base: string;
let node: AdminNodeDetail;
let uid: number;
let frpToken: string;
let tcp: TunnelView;

beforeAll(async () => {
  t = await createTestApp();
  openDomains(t);
  const admin = await t.adminToken();
  node = await createTestNode(t, { bandwidth: 0 }, admin);
  const u = await t.register();
  uid = u.uid;
  await setPlan(t, uid, { bandwidth: 10 });
  frpToken = (await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token })).body.data.frp_token;
  tcp = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "tcp", local_port: 22 });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
afterAll(() => t.close());

interface Req {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** sent with Transfer-Encoding: chunked instead of a Content-Length */
  chunked?: boolean;
}
interface Answer {
  status: number;
  type: string | undefined;
  body: string;
  /** every header but the date */
  headers: Record<string, unknown>;
}
const withoutDate = ({ date: _, ...rest }: Record<string, unknown>) => rest;

const pluginPath = (op = "Login", n: { node_id: number | string; plugin_secret: string } = node) =>
  `/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`;
const envelope = (op: string, content: unknown) => JSON.stringify({ version: "0.1.0", op, content });
const RUN_ID = "8e2f0c4b9a1d7e35";
const user = () => ({ user: `u_${uid}`, metas: { token: frpToken }, run_id: RUN_ID });
const login = () =>
  envelope("Login", {
    version: "0.70.1",
    user: `u_${uid}`,
    privilege_key: "0123456789abcdef0123456789abcdef",
    timestamp: 1753279200,
    metas: { token: frpToken },
    client_address: "203.0.113.7:51234",
  });
const newProxy = () =>
  envelope("NewProxy", {
    user: user(),
    proxy_name: `u_${uid}.t_${tcp.tun_id}`,
    proxy_type: "tcp",
    remote_port: tcp.remote_port,
  });

/** Over a socket, with exactly the given headers (Go's client sends Content-Length). */
function overSocket(r: Req): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = r.body ?? "";
    const headers: Record<string, string> = { "user-agent": "Go-http-client/1.1", ...r.headers };
    if (!r.chunked) headers["content-length"] = String(Buffer.byteLength(body));
    const req = http.request(`${base}${r.path ?? pluginPath()}`, { method: r.method ?? "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers["content-type"],
          body: text,
          headers: withoutDate(res.headers),
        }),
      );
    });
    req.on("error", reject);
    if (r.chunked) req.write(body.slice(0, 5));
    req.end(r.chunked ? body.slice(5) : body);
  });
}

/**
 * Sends r over a socket, then again chunked (no Content-Length: the fast path never takes it, so
 * Fastify's route answers), and requires the same answer; returns it and whether the fast path
 * took the first.
 */
async function both(r: Req): Promise<{ answer: Answer; fast: boolean }> {
  const fastPath = PluginFastPath.of(t.ctx);
  if (!fastPath) throw new Error("no fast path");
  const served = fastPath.served;
  const answer = await overSocket(r);
  const fast = fastPath.served === served + 1;
  expect(await overSocket({ ...r, chunked: true })).toEqual(answer);
  expect(fastPath.served).toBe(fast ? served + 1 : served);
  return { answer, fast };
}

const json = { "content-type": "application/json" };

describe("plugin fast path", () => {
  it("answers frps's calls itself, as Fastify's route does", async () => {
    const cases: [string, Req, number][] = [
      ["Login", { headers: json, body: login() }, 200],
      ["NewProxy (modified)", { path: pluginPath("NewProxy"), headers: json, body: newProxy() }, 200],
      [
        "NewUserConn",
        {
          path: pluginPath("NewUserConn"),
          headers: json,
          body: envelope("NewUserConn", {
            user: user(),
            proxy_name: `u_${uid}.t_${tcp.tun_id}`,
            proxy_type: "tcp",
            remote_addr: "198.51.100.9:40112",
          }),
        },
        200,
      ],
      [
        "Ping",
        {
          path: pluginPath("Ping"),
          headers: json,
          body: envelope("Ping", { user: user(), timestamp: 1, privilege_key: "x" }),
        },
        200,
      ],
      [
        "unknown op",
        { path: pluginPath("FutureOp"), headers: json, body: envelope("FutureOp", { user: user() }) },
        200,
      ],
      ["charset in the type", { headers: { "content-type": "application/json; charset=utf-8" }, body: login() }, 200],
      [
        "wrong secret",
        { path: pluginPath("Login", { node_id: node.node_id, plugin_secret: "nope" }), headers: json, body: login() },
        403,
      ],
      [
        "unknown node",
        {
          path: pluginPath("Login", { node_id: 999999, plugin_secret: node.plugin_secret }),
          headers: json,
          body: login(),
        },
        403,
      ],
      ["no content", { headers: json, body: JSON.stringify({ version: "0.1.0", op: "Login" }) }, 400],
      ["an array", { headers: json, body: "[1,2]" }, 400],
      ["null", { headers: json, body: "null" }, 400],
      ["invalid JSON", { headers: json, body: '{"op":' }, 400],
      ["empty body", { headers: json, body: "" }, 400],
      ["__proto__ key", { headers: json, body: '{"__proto__":{"x":1},"op":"Login"}' }, 400],
      ["escaped __proto__", { headers: json, body: '{"\\u005f_proto__":{"x":1},"op":"Login"}' }, 400],
      ["constructor.prototype", { headers: json, body: '{"constructor":{"prototype":{"x":1}},"op":"Login"}' }, 400],
    ];
    for (const [name, r, status] of cases) {
      const { answer, fast } = await both(r);
      expect({ name, status: answer.status, fast }).toEqual({ name, status, fast: true });
      expect(answer.type).toBe("application/json; charset=utf-8");
    }
    const modified = JSON.parse(
      (await overSocket({ path: pluginPath("NewProxy"), headers: json, body: newProxy() })).body,
    );
    expect(modified).toMatchObject({ reject: false, unchange: false, content: { remote_port: tcp.remote_port } });
  });

  it("leaves every other request to Fastify, which answers it as before", async () => {
    const big = JSON.stringify({ op: "Login", pad: "x".repeat(1024 * 1024) });
    const cases: [string, Req, number][] = [
      ["chunked", { headers: json, body: login(), chunked: true }, 200],
      ["chunked and empty", { headers: json, body: "", chunked: true }, 400],
      ["text/plain", { headers: { "content-type": "text/plain" }, body: login() }, 415],
      ["no content type", { body: login() }, 415],
      ["over the body limit", { headers: json, body: big }, 413],
      ["GET", { method: "GET" }, 404],
      [
        // an escaped character that is not the secret's first (a random secret may start with "n")
        "an escaped secret",
        {
          path: pluginPath("Login", {
            node_id: node.node_id,
            plugin_secret: `${node.plugin_secret[0] === "n" ? "%6F" : "%6E"}${node.plugin_secret.slice(1)}`,
          }),
          headers: json,
          body: login(),
        },
        403,
      ],
      [
        "a longer path",
        { path: `/api/frp/plugin/${node.node_id}/${node.plugin_secret}/x`, headers: json, body: login() },
        404,
      ],
      [
        "a non-numeric node",
        {
          path: pluginPath("Login", { node_id: "1e3", plugin_secret: node.plugin_secret }),
          headers: json,
          body: login(),
        },
        403,
      ],
    ];
    for (const [name, r, status] of cases) {
      const { answer, fast } = await both(r);
      // Fastify turns client errors into the 400 envelope (http/error-handler.ts), except a 404.
      expect({ name, fast }).toEqual({ name, fast: false });
      expect(answer.status).toBe(status === 404 || status === 403 || status === 200 ? status : 400);
    }
  });

  it("answers a failing decision with the app's 500 and logs it, as Fastify does", async () => {
    const spy = vi.spyOn(frpRuntime(t.ctx).plugin, "handle").mockImplementation(() => {
      throw new Error("boom");
    });
    const logged = vi.spyOn(pluginLogger(t.ctx), "error");
    try {
      const { answer, fast } = await both({ headers: json, body: login() });
      expect(fast).toBe(true);
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body)).toMatchObject({ code: expect.any(Number), data: null });
      spy.mockImplementation(() => Promise.reject(new Error("boom later")));
      expect((await both({ headers: json, body: login() })).answer.status).toBe(500);
      // Each of the four answers (two over the socket, two injected) logged its error.
      expect(logged.mock.calls.map((c) => (c[0] as { err: Error }).err.message)).toEqual([
        "boom",
        "boom",
        "boom later",
        "boom later",
      ]);
    } finally {
      logged.mockRestore();
      spy.mockRestore();
    }
  });

  it("counts its requests and decisions in /metrics like the route's", async () => {
    const before = await t.ctx.metrics.registry.metrics();
    const count = (text: string, re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
    const reqRe =
      /burrow_http_requests_total\{method="POST",route="\/api\/frp\/plugin\/:node_id\/:secret",status="200"\} (\d+)/;
    const decRe = /burrow_frp_plugin_decisions_total\{op="Login",verdict="allow"\} (\d+)/;
    await overSocket({ headers: json, body: login() });
    const after = await t.ctx.metrics.registry.metrics();
    expect(count(after, reqRe) - count(before, reqRe)).toBe(1);
    expect(count(after, decRe) - count(before, decRe)).toBe(1);
  });
});

describe("closing", () => {
  it("answers the calls in flight, then closes their keep-alive connections at once", async () => {
    const app = await createTestApp();
    const n = await createTestNode(app, { bandwidth: 0 });
    await app.app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.app.server.address() as { port: number }).port;
    // Decisions that take 300 ms, so both calls are in flight when the app starts closing.
    vi.spyOn(frpRuntime(app.ctx).plugin, "handle").mockImplementation(
      () =>
        new Promise((resolve) =>
          setTimeout(() => resolve({ status: 200, body: { reject: false, unchange: true } }), 300),
        ),
    );
    const agent = new http.Agent({ keepAlive: true });
    const call = (chunked: boolean) =>
      new Promise<{ status: number; connection: unknown; closedAt: number }>((resolve, reject) => {
        const body = envelope("Ping", {});
        const req = http.request(
          `http://127.0.0.1:${port}${pluginPath("Ping", n)}`,
          {
            method: "POST",
            agent,
            headers: { ...json, ...(!chunked && { "content-length": String(Buffer.byteLength(body)) }) },
          },
          (res) => {
            res.resume();
            res.on("end", () =>
              res.socket.once("close", () =>
                resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, closedAt: Date.now() }),
              ),
            );
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const calls = [call(false), call(true)];
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await app.close();
    const closed = Date.now() - t0;
    const [fastCall, routeCall] = await Promise.all(calls);
    expect(fastCall).toMatchObject({ status: 200, connection: "close" });
    // Fastify ends its in-flight answers the same way while closing.
    expect(routeCall).toMatchObject({ status: 200, connection: "close" });
    // Not the 72 s keep-alive timeout: each connection closed right after its answer.
    expect(closed).toBeLessThan(3_000);
    expect(Math.max(fastCall.closedAt, routeCall.closedAt) - t0).toBeLessThan(3_000);
    agent.destroy();
  });
});
