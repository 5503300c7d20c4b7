import type { Paged, PluginResponse, TunnelEventRow } from "@burrow/contract";
import { FREED_SESSION } from "@burrow/frp-decision";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loginContent, tcpProxy, userInfo } from "../../../test/frps-bodies";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";
import { DAY_MS, shanghaiWallClock } from "../../shared/time";
import { EVENTS_PER_TUNNEL, pruneTunnelEvents, recordTunnelEvents } from "../tunnels/tunnel-events";
import { frpRuntime } from "./frp.routes";

/*
 * 连接诊断 and 强制下线 through the API and the plugin endpoint, as frps calls it: what the console
 * decided is recorded off the hot path (the write-behind writer), collapsed per minute, paged,
 * only for the tunnel's owner; a freed session is refused at its next heartbeat and cannot come
 * back, and the customer's other frpc takes the proxy once the old one's close arrives.
 */

const suite = pluginSuite();
const { customer, flush } = suite;
afterEach(() => vi.useRealTimers());
type Customer = PluginCustomer;

const RUN_A = "aaaaaaaa11112222";
const RUN_B = "bbbbbbbb33334444";
const login = (c: Customer, runId = "", version = "0.61.1") => ({ ...loginContent(c), run_id: runId, version });
const proxy = (c: Customer, runId = RUN_A, port = c.tcp.remote_port) =>
  tcpProxy(c, { user: userInfo(c, runId), remote_port: port });

async function call(op: string, content: unknown): Promise<PluginResponse> {
  const r = await suite.plugin(op, content);
  expect(r.status).toBe(200);
  return r.body as unknown as PluginResponse;
}

async function doctor(c: Customer, query: Record<string, unknown> = {}, token = c.token) {
  return suite.get().t.api<Paged<TunnelEventRow>>("GET", `/user/tun/${c.tcp.tun_id}/events`, { token, query });
}
const holder = async (c: Customer) =>
  (
    await suite
      .get()
      .t.db.selectFrom("tunnels")
      .select(["run_id", "last_online_at"])
      .where("tun_id", "=", c.tcp.tun_id)
      .executeTakeFirstOrThrow()
  ).run_id;

describe("连接诊断", () => {
  it("records logins and proxies, collapses identical ones within a minute, newest first, paged", async () => {
    const { t } = suite.get();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-28T04:01:10.000Z"));
    const c = await customer();
    const wrong = c.tcp.remote_port! + 1;
    for (let i = 0; i < 3; i++) expect((await call("Login", login(c))).reject).toBe(false);
    for (let i = 0; i < 2; i++) {
      const r = await call("NewProxy", proxy(c, RUN_A, wrong));
      expect(r.reject_reason).toBe(
        `隧道 ${c.tcp.tun_name} 的远程端口应为 ${c.tcp.remote_port}（配置为 ${wrong}），请重新下载配置文件`,
      );
    }
    vi.setSystemTime(new Date("2026-11-28T04:01:40.000Z"));
    expect((await call("NewProxy", proxy(c))).reject).toBe(false);
    await flush();
    // Another minute: a new row, even for the same Login.
    vi.setSystemTime(new Date("2026-11-28T04:02:05.000Z"));
    await call("Login", login(c));
    await flush();

    const all = await doctor(c, { size: 10 });
    expect(all.status).toBe(200);
    const rows = all.body.data.list;
    expect(rows.map((r) => [r.kind, r.count])).toEqual([
      ["login_ok", 1],
      ["proxy_ok", 1],
      ["proxy_refused", 2],
      ["login_ok", 3],
    ]);
    expect(rows[2]).toMatchObject({
      reason: `隧道 ${c.tcp.tun_name} 的远程端口应为 ${c.tcp.remote_port}（配置为 ${wrong}），请重新下载配置文件`,
      fix: "config",
      first_at: "2026-11-28T04:01:10.000Z",
    });
    expect(rows[3]).toMatchObject({ reason: "登录成功（frpc 0.61.1，203.0.113.7）", fix: null });

    // The same minute in a later batch adds to its row (the upsert), not a second one.
    vi.setSystemTime(new Date("2026-11-28T04:02:30.000Z"));
    await call("Login", login(c));
    await flush();
    const page1 = await doctor(c, { size: 2, page: 1 });
    const page2 = await doctor(c, { size: 2, page: 2 });
    expect(page1.body.data).toMatchObject({ total: 4, page: 1, size: 2 });
    expect(page1.body.data.list.map((r) => [r.kind, r.count])).toEqual([
      ["login_ok", 2],
      ["proxy_ok", 1],
    ]);
    expect(page2.body.data.list.map((r) => r.kind)).toEqual(["proxy_refused", "login_ok"]);

    // Another customer's tunnel, or none, is 404; a bad page is 400 naming it.
    const other = await customer();
    expect((await doctor(c, {}, other.token)).status).toBe(404);
    expect((await t.api("GET", "/user/tun/99999999/events", { token: c.token })).status).toBe(404);
    const bad = await doctor(c, { page: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("page");
  });

  it("records refused visitors and heartbeats of a locked tunnel, with the appeal as its fix", async () => {
    const { t, admin } = suite.get();
    const c = await customer();
    expect((await call("NewProxy", proxy(c))).reject).toBe(false);
    await flush();
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: c.tcp.tun_id, status: 3, banned_reason: "钓鱼" },
    });
    const visitor = {
      user: userInfo(c),
      proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
      proxy_type: "tcp",
      remote_addr: "198.51.100.9:4000",
    };
    for (let i = 0; i < 3; i++) expect((await call("NewUserConn", visitor)).reject).toBe(true);
    expect((await call("Ping", { user: userInfo(c) })).reject).toBe(true);
    await flush();
    const rows = (await doctor(c)).body.data.list;
    const locked = `隧道 ${c.tcp.tun_name} 已被锁定：钓鱼`;
    expect(rows.find((r) => r.kind === "locked")).toMatchObject({ reason: locked, fix: "appeal" });
    expect(rows.find((r) => r.kind === "visitor_refused")).toMatchObject({ reason: locked, count: 3, fix: "appeal" });
    expect(rows.find((r) => r.kind === "ping_refused")).toMatchObject({ reason: `${locked}，连接已断开` });
    await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: c.tcp.tun_id, status: 2 } });
    expect((await doctor(c)).body.data.list[0]).toMatchObject({ kind: "unlocked" });
  });

  it("prunes rows older than 7 days and keeps at most EVENTS_PER_TUNNEL per tunnel", async () => {
    const { t, node } = suite.get();
    const c = await customer();
    const now = new Date();
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const row = (reason: string, iso: string) => ({
      tun_id: c.tcp.tun_id,
      uid: c.uid,
      node_id: node.node_id,
      kind: "proxy_refused" as const,
      reason,
      count: 1,
      first_at: iso,
      last_at: iso,
    });
    const many = Array.from({ length: EVENTS_PER_TUNNEL + 5 }, (_, i) => row(`r${i}`, at(3600_000)));
    await recordTunnelEvents(t.db, [row("old", at(8 * DAY_MS)), ...many]);
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom("tunnel_events")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("tun_id", "=", c.tcp.tun_id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(EVENTS_PER_TUNNEL + 6);
    await pruneTunnelEvents(t.ctx, now);
    expect(await count()).toBe(EVENTS_PER_TUNNEL);
    const left = await t.db.selectFrom("tunnel_events").select("reason").where("tun_id", "=", c.tcp.tun_id).execute();
    const reasons = new Set(left.map((r) => r.reason));
    // The oldest row by age and the first-written beyond the bound went; the newest stayed.
    expect(reasons.has("old")).toBe(false);
    expect(reasons.has("r0")).toBe(false);
    expect(reasons.has(`r${EVENTS_PER_TUNNEL + 4}`)).toBe(true);
  });
});

describe("强制下线", () => {
  it("refuses the holder's next heartbeat and its return; the other frpc takes the proxy after its close", async () => {
    const { t } = suite.get();
    const c = await customer();
    await call("Login", login(c));
    expect((await call("NewProxy", proxy(c, RUN_A))).reject).toBe(false);
    await flush();
    expect(await holder(c)).toBe(RUN_A);
    const since = (
      await t.db
        .selectFrom("tunnels")
        .select("last_online_at")
        .where("tun_id", "=", c.tcp.tun_id)
        .executeTakeFirstOrThrow()
    ).last_online_at!;

    // A second frpc (a new process: another run id) while A holds: frps refuses it as a duplicate;
    // the doctor says who holds it, and offers the button.
    await call("Login", login(c, "", "0.70.1"));
    expect((await call("NewProxy", proxy(c, RUN_B))).reject).toBe(false);
    await flush();
    expect(await holder(c)).toBe(RUN_A);
    const held = (await doctor(c)).body.data.list.find((r) => r.kind === "proxy_held");
    const clock = shanghaiWallClock(since).toISOString().slice(11, 19);
    expect(held).toMatchObject({ fix: "free_session" });
    expect(held?.reason).toContain(`被另一会话占用：会话 ${RUN_A} 自 ${clock}，203.0.113.7，frpc 0.61.1`);

    // Before: A's heartbeat passes.
    expect((await call("Ping", { user: userInfo(c, RUN_A) })).reject).toBe(false);
    const freed = await t.api("POST", `/user/tun/${c.tcp.tun_id}/free`, { token: c.token });
    expect(freed.status).toBe(200);
    await frpRuntime(t.ctx).evictions.loading;

    // A's next heartbeat is refused (frpc drops the session), and so are its re-login and proxy.
    expect(await call("Ping", { user: userInfo(c, RUN_A) })).toEqual({ reject: true, reject_reason: FREED_SESSION });
    expect((await call("Login", login(c, RUN_A))).reject_reason).toBe(FREED_SESSION);
    expect((await call("NewProxy", proxy(c, RUN_A))).reject_reason).toBe(FREED_SESSION);
    // B is not touched.
    expect((await call("Ping", { user: userInfo(c, RUN_B) })).reject).toBe(false);
    // frps closes A's proxy (its session ended): the hold goes, B's next NewProxy takes it.
    await call("CloseProxy", { user: userInfo(c, RUN_A), proxy_name: `${c.user}.t_${c.tcp.tun_id}` });
    await flush();
    expect(await holder(c)).toBe(null);
    expect((await call("NewProxy", proxy(c, RUN_B))).reject).toBe(false);
    await flush();
    expect(await holder(c)).toBe(RUN_B);

    const kinds = (await doctor(c)).body.data.list.map((r) => r.kind);
    expect(kinds).toEqual(expect.arrayContaining(["session_freed", "ping_refused", "login_refused", "proxy_refused"]));
    const audit = await t.db
      .selectFrom("audit_logs")
      .select(["action", "detail", "operator_uid"])
      .where("target", "=", `tunnel:${c.tcp.tun_id}`)
      .execute();
    expect(audit).toEqual([
      { action: "tunnel.free_session", detail: JSON.stringify({ run_id: RUN_A }), operator_uid: c.uid },
    ]);
  });

  it("is limited to 5 per tunnel in 10 minutes, refused without a holder, 404 for another's tunnel", async () => {
    const { t } = suite.get();
    const c = await customer();
    const free = (token = c.token) => t.api("POST", `/user/tun/${c.tcp.tun_id}/free`, { token });
    const none = await free();
    expect(none.status).toBe(403);
    expect(none.body.code).toBe(2001);
    expect((await call("NewProxy", proxy(c, RUN_A))).reject).toBe(false);
    await flush();
    const other = await customer();
    expect((await free(other.token)).status).toBe(404);
    for (let i = 0; i < 5; i++) expect((await free()).body.code, `free #${i + 1}`).toBe("SUCCESS");
    const sixth = await free();
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe(2029);
    // Nothing more was written for the refused one.
    const audits = await t.db
      .selectFrom("audit_logs")
      .select("id")
      .where("target", "=", `tunnel:${c.tcp.tun_id}`)
      .execute();
    expect(audits).toHaveLength(5);
  });
});
