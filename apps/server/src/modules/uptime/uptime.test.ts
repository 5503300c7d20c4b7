import {
  type MaintenanceView,
  NodeStatus,
  type ProviderStatus,
  type PublicTunnelStatus,
  TunnelStatus,
  type TunnelUptime,
} from "@burrow/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestNode, createTestTunnel, registerWithPlan, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { dispatchOutbox } from "../../shared/outbox-dispatch";
import { addDays, DAY_MS, shanghaiDate, shanghaiDayStart } from "../../shared/time";
import { transact } from "../../shared/tx";
import { setNodeHealth } from "../nodes/nodes.service";
import { tunnelsGone, tunnelsOffline, tunnelsOnline } from "../tunnels/sessions";
import { pruneUptime } from "./prune";

const MIN = 60_000;
/** The controllable clock: Date only (timers stay real). */
const at = (ms: number) => vi.setSystemTime(new Date(ms));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

async function customerWithTunnel(localIp = "10.9.8.7") {
  const node = await createTestNode(t);
  const u = await registerWithPlan(t);
  const tun = await createTestTunnel(t, u.token, { node_id: node.node_id, local_ip: localIp, local_port: 54329 });
  return { node, u, tun };
}

/** Status changes as the frp plugin and poller write them, at the clock's time. */
const online = (id: number) => transact(t.ctx, (trx) => tunnelsOnline(trx, [id], "run-1", new Date().toISOString()));
const gone = (id: number) => transact(t.ctx, (trx) => tunnelsGone(trx, [id]));
const closed = (id: number, uid: number) =>
  transact(t.ctx, (trx) => tunnelsOffline(trx, [id], "run-1", [{ tun_id: id, uid }]));
/** The poller's health write (nodes' setNodeHealth records node.down / node.up on a change). */
const nodeHealth = (node: { node_id: number }, up: boolean) =>
  transact(t.ctx, (trx) =>
    setNodeHealth(trx, node.node_id, up ? NodeStatus.Online : NodeStatus.Offline, "unreachable"),
  );

const uptimeOf = async (token: string, tunId: number) => {
  const r = await t.api<TunnelUptime>("GET", `/user/tun/${tunId}/uptime`, { token });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data;
};

describe("tunnel uptime", () => {
  it("bars per Shanghai day and incidents over two minutes, from the status changes and the node's health", async () => {
    const { node, u, tun } = await customerWithTunnel();
    const today = shanghaiDate();
    const yStart = shanghaiDayStart(addDays(today, -1)).getTime();
    const tStart = shanghaiDayStart(today).getTime();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(yStart - 60 * MIN); // 23:00 the day before yesterday
    await nodeHealth(node, true);
    await online(tun.tun_id);
    at(yStart - 10 * MIN); // across midnight: 10 minutes on each day, one incident
    await gone(tun.tun_id);
    at(yStart + 10 * MIN);
    await online(tun.tun_id);
    at(yStart + 120 * MIN); // exactly two minutes: counted, not an incident
    await closed(tun.tun_id, u.uid);
    at(yStart + 122 * MIN);
    await online(tun.tun_id);
    at(yStart + 180 * MIN); // 121 s: an incident
    await gone(tun.tun_id);
    at(yStart + 180 * MIN + 121_000);
    await online(tun.tun_id);
    at(tStart + 10 * MIN); // today the node goes down for 30 minutes; the tunnel's row stays connected
    await nodeHealth(node, false);
    at(tStart + 40 * MIN);
    await nodeHealth(node, true);
    at(tStart + 60 * MIN);
    await dispatchOutbox(t.ctx);

    const up = await uptimeOf(u.token, tun.tun_id);
    expect(up.days).toHaveLength(90);
    expect(up.days[89].day).toBe(today);
    const [before, yesterday, todayBar] = up.days.slice(-3);
    expect(before).toEqual({ day: addDays(today, -2), pct: 83.33, down_ms: 10 * MIN }); // 50 of 60 minutes
    expect(yesterday).toEqual({ day: addDays(today, -1), pct: 99.02, down_ms: 10 * MIN + 120_000 + 121_000 });
    expect(todayBar).toEqual({ day: today, pct: 50, down_ms: 30 * MIN });
    expect(up.days.slice(0, 87).every((d) => d.pct === null && d.down_ms === 0)).toBe(true);
    expect(up.incidents).toEqual([
      {
        start: new Date(tStart + 10 * MIN).toISOString(),
        end: new Date(tStart + 40 * MIN).toISOString(),
        duration_ms: 30 * MIN,
        cause: "node_down",
      },
      {
        start: new Date(yStart + 180 * MIN).toISOString(),
        end: new Date(yStart + 180 * MIN + 121_000).toISOString(),
        duration_ms: 121_000,
        cause: "client",
      },
      {
        start: new Date(yStart - 10 * MIN).toISOString(),
        end: new Date(yStart + 10 * MIN).toISOString(),
        duration_ms: 20 * MIN,
        cause: "client",
      },
    ]);
    // The whole window: 60 + 1440 + 60 minutes known, 10 + 14.02 + 30 down.
    const known = (60 + 1440 + 60) * MIN;
    const down = 50 * MIN + 120_000 + 121_000;
    expect(up.pct).toBe(Math.floor(((known - down) / known) * 10000) / 100);

    // At least once: delivering the same events again changes nothing.
    await t.db
      .updateTable("outbox_deliveries")
      .set({ status: "pending", next_at: new Date(0).toISOString() })
      .execute();
    await dispatchOutbox(t.ctx);
    expect(await uptimeOf(u.token, tun.tun_id)).toEqual(up);
  });

  it("names the cause: locked, turned off, out of quota; an outage still going on has no end", async () => {
    const { u, tun } = await customerWithTunnel();
    const admin = await t.adminToken();
    const base = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(base);
    await online(tun.tun_id);
    at(base + 5 * MIN); // the customer turns it off: frps closes the proxy
    expect(
      (await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id, enabled: false } })).body.code,
    ).toBe("SUCCESS");
    await closed(tun.tun_id, u.uid);
    at(base + 10 * MIN);
    expect(
      (await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id, enabled: true } })).body.code,
    ).toBe("SUCCESS");
    await online(tun.tun_id);
    at(base + 15 * MIN); // quota used up: the plugin refuses the heartbeat, frps closes it
    await setPlan(t, u.uid, { traffic: 1, used: 1024 ** 3 });
    await closed(tun.tun_id, u.uid);
    await dispatchOutbox(t.ctx);
    at(base + 20 * MIN);
    await setPlan(t, u.uid);
    await online(tun.tun_id);
    at(base + 25 * MIN); // an operator locks it while connected
    const lock = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: tun.tun_id, status: TunnelStatus.Locked, banned_reason: "测试" },
    });
    expect(lock.body.code).toBe("SUCCESS");
    at(base + 35 * MIN);
    await dispatchOutbox(t.ctx);

    const up = await uptimeOf(u.token, tun.tun_id);
    expect(up.online).toBe(false);
    expect(up.incidents.map((i) => [i.cause, i.end === null, i.duration_ms])).toEqual([
      ["locked", true, 10 * MIN],
      ["quota", false, 5 * MIN],
      ["disabled", false, 5 * MIN],
    ]);
  });

  it("another customer's tunnel is not found; a bad id is a 400 naming it", async () => {
    const { tun } = await customerWithTunnel();
    const other = await t.register();
    const r = await t.api("GET", `/user/tun/${tun.tun_id}/uptime`, { token: other.token });
    expect(r.status).toBe(404);
    const p = await t.api("PUT", `/user/tun/${tun.tun_id}/uptime/public`, {
      token: other.token,
      body: { enabled: true },
    });
    expect(p.status).toBe(404);
    expect(await t.db.selectFrom("uptime_pages").selectAll().where("tun_id", "=", tun.tun_id).execute()).toEqual([]);
    const bad = await t.api("GET", "/user/tun/abc/uptime", { token: other.token });
    expect([bad.status, bad.body.code, bad.body.msg.includes("tunid")]).toEqual([400, 10000, true]);
  });

  it("prunes history older than 90 days, keeping the state the window opens in", async () => {
    const { u, tun } = await customerWithTunnel();
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(now - 120 * DAY_MS);
    await online(tun.tun_id);
    at(now - 100 * DAY_MS);
    await gone(tun.tun_id);
    at(now - 95 * DAY_MS); // the last change before the cut-off: up since
    await online(tun.tun_id);
    at(now - DAY_MS);
    await gone(tun.tun_id);
    at(now);
    await dispatchOutbox(t.ctx);
    const rows = () =>
      t.db
        .selectFrom("uptime_changes")
        .select(["at", "up"])
        .where("subject", "=", "tunnel")
        .where("subject_id", "=", tun.tun_id)
        .orderBy("at")
        .execute();
    expect(await rows()).toHaveLength(4);
    const before = await uptimeOf(u.token, tun.tun_id);
    await pruneUptime(t.ctx, new Date(now));
    expect(await rows()).toEqual([
      { at: new Date(now - 95 * DAY_MS).toISOString(), up: 1 },
      { at: new Date(now - DAY_MS).toISOString(), up: 0 },
    ]);
    expect(await uptimeOf(u.token, tun.tun_id)).toEqual(before);
    expect(before.days[0].pct).toBe(100);
  });
});

describe("public status page and badge", () => {
  it("off by default; on gives an unguessable slug showing nothing private; off makes page and badge 404", async () => {
    const { u, tun } = await customerWithTunnel("10.77.66.55");
    // The poller found its node up.
    await transact(t.ctx, (trx) => setNodeHealth(trx, tun.node_id, NodeStatus.Online));
    await online(tun.tun_id);
    await dispatchOutbox(t.ctx);
    const first = await uptimeOf(u.token, tun.tun_id);
    expect(first.public_page).toEqual({ enabled: false, slug: null });

    const on = await t.api<TunnelUptime>("PUT", `/user/tun/${tun.tun_id}/uptime/public`, {
      token: u.token,
      body: { enabled: true },
    });
    const slug = on.body.data.public_page.slug as string;
    expect(on.body.data.public_page.enabled).toBe(true);
    expect(slug).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const page = await t.api<PublicTunnelStatus>("GET", `/status/t/${slug}`);
    expect(page.status).toBe(200);
    expect(page.body.data.name).toBe(tun.tun_name);
    expect(page.body.data.days).toHaveLength(90);
    const badge = await t.app.inject({ method: "GET", url: `/status/t/${slug}/badge.svg` });
    expect(badge.statusCode).toBe(200);
    expect(badge.headers["content-type"]).toContain("image/svg+xml");
    expect(badge.body).toContain("在线");
    expect(badge.body).toContain("100.00%");
    const user = await t.db
      .selectFrom("users")
      .select(["phone", "frp_token"])
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    const node = await t.db
      .selectFrom("nodes")
      .select(["plugin_secret", "host"])
      .where("node_id", "=", tun.node_id)
      .executeTakeFirstOrThrow();
    for (const text of [JSON.stringify(page.body), badge.body]) {
      for (const secret of [
        "10.77.66.55",
        "local_ip",
        user.phone,
        user.frp_token,
        node.plugin_secret,
        node.host,
        String(tun.local_port),
        "uid",
      ])
        expect(text).not.toContain(secret);
    }

    const off = await t.api<TunnelUptime>("PUT", `/user/tun/${tun.tun_id}/uptime/public`, {
      token: u.token,
      body: { enabled: false },
    });
    expect(off.body.data.public_page).toEqual({ enabled: false, slug });
    expect((await t.api("GET", `/status/t/${slug}`)).status).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `/status/t/${slug}/badge.svg` })).statusCode).toBe(404);
    // On again: the same address.
    const again = await t.api<TunnelUptime>("PUT", `/user/tun/${tun.tun_id}/uptime/public`, {
      token: u.token,
      body: { enabled: true },
    });
    expect(again.body.data.public_page.slug).toBe(slug);
    // A deleted tunnel's page is gone.
    expect((await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id } })).body.code).toBe(
      "SUCCESS",
    );
    expect((await t.api("GET", `/status/t/${slug}`)).status).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/status/t/not-a-slug/badge.svg" })).statusCode).toBe(404);
  });

  it("a client asking too often is refused (429)", async () => {
    const { u, tun } = await customerWithTunnel();
    const on = await t.api<TunnelUptime>("PUT", `/user/tun/${tun.tun_id}/uptime/public`, {
      token: u.token,
      body: { enabled: true },
    });
    const slug = on.body.data.public_page.slug as string;
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) codes.push((await t.api("GET", `/status/t/${slug}`, { ip: "203.0.113.9" })).status);
    expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
    expect(codes[60]).toBe(429);
  });
});

describe("provider status and maintenance", () => {
  it("lists each node's uptime and state; a Manager announces, edits and cancels maintenance, customers there are told", async () => {
    const { node, u } = await customerWithTunnel();
    const admin = await t.adminToken();
    const starts = new Date(Date.now() + DAY_MS).toISOString();
    const ends = new Date(Date.now() + DAY_MS + 2 * 3600_000).toISOString();

    const bad = await t.api("POST", "/super/maintenance", {
      token: admin,
      body: { title: "升级", starts_at: ends, ends_at: starts, node_ids: [node.node_id] },
    });
    expect([bad.status, bad.body.code, bad.body.msg]).toEqual([400, 10000, expect.stringContaining("结束时间")]);
    const noNode = await t.api("POST", "/super/maintenance", {
      token: admin,
      body: { title: "升级", starts_at: starts, ends_at: ends, node_ids: [987654] },
    });
    expect([noNode.status, noNode.body.code]).toEqual([400, 10000]);
    const asCustomer = await t.api("POST", "/super/maintenance", {
      token: u.token,
      body: { title: "升级", starts_at: starts, ends_at: ends, node_ids: [node.node_id] },
    });
    expect(asCustomer.status).toBe(403);
    expect(await t.db.selectFrom("uptime_maintenance").selectAll().execute()).toEqual([]);

    const made = await t.api<MaintenanceView>("POST", "/super/maintenance", {
      token: admin,
      body: { title: "机房升级", starts_at: starts, ends_at: ends, node_ids: [node.node_id] },
    });
    expect(made.body.code).toBe("SUCCESS");
    const id = made.body.data.id;
    expect(made.body.data.nodes).toEqual([{ node_id: node.node_id, name: node.name }]);
    const events = await t.db
      .selectFrom("outbox_events")
      .select("payload")
      .where("type", "=", "node.maintenance")
      .execute();
    expect(events.map((e) => JSON.parse(e.payload))).toEqual([
      {
        maintenance_id: id,
        action: "announced",
        title: "机房升级",
        starts_at: starts,
        ends_at: ends,
        node_ids: [node.node_id],
        uids: [u.uid],
      },
    ]);

    const status = await t.api<ProviderStatus>("GET", "/status");
    expect(status.body.data.maintenance.map((m) => m.title)).toEqual(["机房升级"]);
    const row = status.body.data.nodes.find((n) => n.node_id === node.node_id);
    expect(row).toMatchObject({ name: node.name, in_maintenance: false });
    expect(row?.days).toHaveLength(90);
    expect(JSON.stringify(status.body)).not.toContain("dashboard-pass");

    const edited = await t.api<MaintenanceView>("PATCH", "/super/maintenance", {
      token: admin,
      body: { id, title: "机房升级（延后）" },
    });
    expect(edited.body.data.title).toBe("机房升级（延后）");
    const cancelled = await t.api<MaintenanceView>("DELETE", "/super/maintenance", { token: admin, body: { id } });
    expect(cancelled.body.data.cancelled_at).not.toBeNull();
    expect((await t.api<ProviderStatus>("GET", "/status")).body.data.maintenance).toEqual([]);
    const actions = await t.db
      .selectFrom("outbox_events")
      .select("payload")
      .where("type", "=", "node.maintenance")
      .orderBy("id")
      .execute();
    expect(actions.map((e) => JSON.parse(e.payload).action)).toEqual(["announced", "updated", "cancelled"]);
    const audits = await t.db
      .selectFrom("audit_logs")
      .select("action")
      .where("target", "=", `maintenance:${id}`)
      .orderBy("id")
      .execute();
    expect(audits.map((a) => a.action)).toEqual(["maintenance.create", "maintenance.update", "maintenance.cancel"]);
    const again = await t.api("PATCH", "/super/maintenance", { token: admin, body: { id, title: "x" } });
    expect(again.status).toBe(403);
  });

  it("a node's bars come from its down and up changes", async () => {
    const node = await createTestNode(t);
    const start = shanghaiDayStart(shanghaiDate()).getTime();
    vi.useFakeTimers({ toFake: ["Date"] });
    at(start + 10 * MIN);
    await nodeHealth(node, true);
    at(start + 20 * MIN);
    await nodeHealth(node, false);
    at(start + 30 * MIN);
    await nodeHealth(node, true);
    at(start + 60 * MIN);
    await dispatchOutbox(t.ctx);
    const status = await t.api<ProviderStatus>("GET", "/status");
    const row = status.body.data.nodes.find((n) => n.node_id === node.node_id);
    expect(row?.days[89]).toEqual({ day: shanghaiDate(), pct: 80, down_ms: 10 * MIN });
  });
});
