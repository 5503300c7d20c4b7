import type { TunnelView } from "@burrow/contract";
import type { Kysely } from "kysely";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel } from "../../../test/frp-fixtures";
import { ALLOW, httpProxy, loginContent, RUN_ID, tcpProxy, userInfo } from "../../../test/frps-bodies";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";
import { buildApp } from "../../app";
import type { DB } from "../../db/schema";

/*
 * A moved tunnel's old hold is persisted (review 5 F1): after the console restarts, the old node
 * still refuses the session that served the tunnel there, and an operator's lock reaches it.
 */

const { customer, plugin, flush, get } = pluginSuite();

const movedHold = (tunId: number) =>
  get()
    .t.db.selectFrom("tunnels")
    .select(["node_id", "moved_node_id", "moved_run_id"])
    .where("tun_id", "=", tunId)
    .executeTakeFirstOrThrow();
/** Apps built by restart(), closed after the suite's own. */
const restarted: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const app of restarted) await app.close();
});

/**
 * The console started again on the same database: a new process's memory (decision cache, plugin)
 * and nothing else. The suite's app owns the connection, so this one's close leaves it open.
 */
async function restart() {
  const { t, node } = get();
  const db = t.db;
  const shared = new Proxy(db, {
    get: (o, k) => {
      if (k === "destroy") return async () => {};
      const v = Reflect.get(o, k, o);
      return typeof v === "function" ? v.bind(o) : v;
    },
  }) as Kysely<DB>;
  const { app } = await buildApp(t.ctx.config, { db: shared, logger: pino({ level: "silent" }) });
  await app.ready();
  restarted.push(app);
  const call = async (op: string, content: unknown) => {
    const r = await app.inject({
      method: "POST",
      url: `/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=${op}&version=0.1.0`,
      payload: { version: "0.1.0", op, content },
    });
    return r.json() as { reject: boolean; reject_reason?: string };
  };
  const api = async (method: "PATCH", url: string, token: string, body: object) =>
    (
      await app.inject({ method, url: `/api${url}`, headers: { authorization: `Bearer ${token}` }, payload: body })
    ).json();
  return { call, api };
}

/** The customer's http tunnel, held on the suite's node by RUN_ID, moved to the other node. */
async function movedWhileHeld(c: PluginCustomer): Promise<void> {
  const { t, node, other } = get();
  expect((await plugin("NewProxy", httpProxy(c))).body.reject).toBe(false);
  await flush();
  const r = await t.api<TunnelView>("POST", "/user/tun/move", {
    token: c.token,
    body: { tun_id: c.http.tun_id, node_id: other.node_id },
  });
  expect(r.body.code).toBe("SUCCESS");
  const row = await t.db
    .selectFrom("tunnels")
    .select(["node_id", "run_id", "moved_node_id", "moved_run_id"])
    .where("tun_id", "=", c.http.tun_id)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ node_id: other.node_id, run_id: null, moved_node_id: node.node_id, moved_run_id: RUN_ID });
}

describe("a moved tunnel's old hold after a restart", () => {
  it("still refuses the old session's heartbeat and work connections on the old node, and only that session", async () => {
    const c = await customer();
    await movedWhileHeld(c);
    const p = await restart();
    const ping = await p.call("Ping", { user: userInfo(c) });
    expect(ping.reject).toBe(true);
    expect(ping.reject_reason).toContain("已迁移到其他节点");
    expect((await p.call("NewWorkConn", { user: userInfo(c) })).reject).toBe(true);
    // Another session of the customer on that node never held it.
    expect(await p.call("Ping", { user: userInfo(c, "0123456789abcdef") })).toEqual(ALLOW);
    // The session logs in again (frps dropped its proxies): this process lets it back.
    expect(await p.call("Login", { ...loginContent(c), run_id: RUN_ID })).toEqual(ALLOW);
    expect(await p.call("Ping", { user: userInfo(c) })).toEqual(ALLOW);
  });

  it("lets an operator's lock, made in the restarted process, reach the old session", async () => {
    const c = await customer();
    await movedWhileHeld(c);
    const p = await restart();
    const locked = await p.api("PATCH", "/super/tun", get().admin, {
      tun_id: c.http.tun_id,
      status: 3,
      banned_reason: "phishing",
    });
    expect(locked.code).toBe("SUCCESS");
    for (const op of ["Ping", "NewWorkConn"]) expect((await p.call(op, { user: userInfo(c) })).reject).toBe(true);
  });
});

describe("a move while the last move's old session still serves (review 6 F1)", () => {
  it("is refused (2001), back to the old node too, and the hold stays until that session is gone", async () => {
    const c = await customer();
    await movedWhileHeld(c);
    const { t, node, other } = get();
    const third = await createTestNode(t, {}, get().admin);
    for (const to of [node, third]) {
      const r = await t.api("POST", "/user/tun/move", {
        token: c.token,
        body: { tun_id: c.http.tun_id, node_id: to.node_id },
      });
      expect(r.body.code).toBe(2001);
      expect(r.body.msg).toContain("原节点上的 frpc 连接尚未断开");
    }
    expect(await movedHold(c.http.tun_id)).toEqual({
      node_id: other.node_id,
      moved_node_id: node.node_id,
      moved_run_id: RUN_ID,
    });
    // The old session dropped the proxy and its dashboard shows it gone: the hold ends, a move goes.
    await t.db
      .updateTable("tunnels")
      .set({ moved_node_id: null, moved_run_id: null })
      .where("tun_id", "=", c.http.tun_id)
      .execute();
    const again = await t.api("POST", "/user/tun/move", {
      token: c.token,
      body: { tun_id: c.http.tun_id, node_id: third.node_id },
    });
    expect(again.body.code).toBe("SUCCESS");
  });

  it("ends with the old node's deletion (no dashboard of it will end the hold)", async () => {
    const c = await customer();
    const { t, other, admin } = get();
    const gone = await createTestNode(t, {}, admin);
    const tcp = await createTestTunnel(t, c.token, { node_id: gone.node_id, protocol: "tcp", local_port: 22 });
    const onGone = { ...c, tcp };
    expect((await plugin("Login", { ...loginContent(c), run_id: RUN_ID }, gone)).body).toEqual(ALLOW);
    expect((await plugin("NewProxy", tcpProxy(onGone), gone)).body.reject).toBe(false);
    await flush();
    const moved = await t.api("POST", "/user/tun/move", {
      token: c.token,
      body: { tun_id: tcp.tun_id, node_id: other.node_id },
    });
    expect(moved.body.code).toBe("SUCCESS");
    expect((await movedHold(tcp.tun_id)).moved_node_id).toBe(gone.node_id);
    const del = await t.api("DELETE", "/super/node", { token: admin, body: { node_id: gone.node_id } });
    expect(del.body.code).toBe("SUCCESS");
    expect(await movedHold(tcp.tun_id)).toEqual({ node_id: other.node_id, moved_node_id: null, moved_run_id: null });
  });
});
