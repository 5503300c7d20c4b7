import type { AdminNodeDetail } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOW, httpProxy, loginContent, RUN_ID, tcpProxy, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";
import { frpRuntime } from "./frp.routes";

/* The plugin endpoint itself: its authentication, the validation of what frps posts, the cache. */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
let node: AdminNodeDetail;
let other: AdminNodeDetail;
beforeAll(() => {
  ({ t, node, other } = suite.get());
});

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
  const cases: [string, string, (c: PluginCustomer) => unknown, string][] = [
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
