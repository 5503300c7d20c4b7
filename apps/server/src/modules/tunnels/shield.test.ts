import {
  ErrorCode,
  type Paged,
  SHIELD_BAN_CAP,
  type ShieldBanRow,
  type ShieldBody,
  type ShieldView,
} from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { ALLOW, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { type PluginCustomer, pluginSuite } from "../../../test/plugin-fixtures";
import { direct } from "../../shared/tx";
import { frpRuntime } from "../frp/frp.routes";
import { eraseAccountTunnels } from "./account-data";
import { recordShieldBans } from "./shield";

/* 访客防护 over the API, enforced by the plugin at NewUserConn (the fast path, as frps calls it). */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

const RULE_OFF: ShieldBody = { allow: [], deny: [], rule_enabled: false, conns: 20, window_s: 60, ban_s: 3600 };

const put = (c: PluginCustomer, body: unknown, tunId = c.tcp.tun_id, token = c.token) =>
  t.api<ShieldView>("PUT", `/user/tun/${tunId}/shield`, { token, body });
const visit = (c: PluginCustomer, addr: string) =>
  plugin("NewUserConn", {
    user: userInfo(c),
    proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
    proxy_type: "tcp",
    remote_addr: addr,
  });
const bansPage = async (c: PluginCustomer, query = "") =>
  (await t.api<Paged<ShieldBanRow>>("GET", `/user/tun/${c.tcp.tun_id}/shield/bans${query}`, { token: c.token })).body
    .data;
const bans = async (c: PluginCustomer) => (await bansPage(c)).list;

describe("the setting", () => {
  it("shows the port's defaults until saved, and says http does not apply", async () => {
    const c = await customer();
    const tcp = await t.api<ShieldView>("GET", `/user/tun/${c.tcp.tun_id}/shield`, { token: c.token });
    expect(tcp.body.data).toEqual({ ...RULE_OFF, applies: true, defaults: true, bans: 0, ban_cap: SHIELD_BAN_CAP });
    const http = await t.api<ShieldView>("GET", `/user/tun/${c.http.tun_id}/shield`, { token: c.token });
    expect(http.body.data.applies).toBe(false);
    const saved = await put(c, { ...RULE_OFF, deny: ["10.0.0.0/8", " 10.0.0.0/8", "2001:db8::/32"] });
    expect(saved.body.data).toMatchObject({ deny: ["10.0.0.0/8", "2001:db8::/32"], defaults: false });
  });

  it("refuses a bad address or CIDR with 400/10000 naming the field, and changes nothing", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, deny: ["192.0.2.1"] });
    for (const [body, field] of [
      [{ ...RULE_OFF, allow: ["10.0.0.1", "10.0.0.0/33"] }, "allow.1"],
      [{ ...RULE_OFF, deny: ["300.1.1.1"] }, "deny.0"],
      [{ ...RULE_OFF, deny: ["2001:db8::/129"] }, "deny.0"],
      [{ ...RULE_OFF, deny: ["1.2.3.4/x"] }, "deny.0"],
      [{ ...RULE_OFF, conns: 0 }, "conns"],
      [{ ...RULE_OFF, ban_s: 10 }, "ban_s"],
    ] as const) {
      const r = await put(c, body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(ErrorCode.InvalidParams);
      expect(r.body.data).toEqual({ field });
      expect(r.body.msg).toContain(field);
    }
    const now = await t.api<ShieldView>("GET", `/user/tun/${c.tcp.tun_id}/shield`, { token: c.token });
    expect(now.body.data.deny).toEqual(["192.0.2.1"]);
  });

  it("answers 404 for another customer's tunnel, its bans and their lifting", async () => {
    const owner = await customer();
    const other = await customer();
    const id = owner.tcp.tun_id;
    expect((await t.api("GET", `/user/tun/${id}/shield`, { token: other.token })).status).toBe(404);
    expect((await put(owner, RULE_OFF, id, other.token)).status).toBe(404);
    expect((await t.api("GET", `/user/tun/${id}/shield/bans`, { token: other.token })).status).toBe(404);
    // a real ban of the owner's, lifted by someone else: 404, and it stays
    await put(owner, { ...RULE_OFF, rule_enabled: true, conns: 1 });
    await visit(owner, "198.51.100.40:1");
    await visit(owner, "198.51.100.40:2");
    await flush();
    const [ban] = await bans(owner);
    expect(ban.ip).toBe("198.51.100.40");
    expect((await t.api("DELETE", `/user/tun/${id}/shield/bans/${ban.id}`, { token: other.token })).status).toBe(404);
    const viaOwnTunnel = `/user/tun/${other.tcp.tun_id}/shield/bans/${ban.id}`;
    expect((await t.api("DELETE", viaOwnTunnel, { token: other.token })).status).toBe(404);
    expect(await bans(owner)).toHaveLength(1);
  });
});

describe("at NewUserConn", () => {
  it("refuses denied addresses and networks (v4, v6) and lets the others through", async () => {
    const c = await customer();
    expect((await visit(c, "198.51.100.9:40000")).body).toEqual(ALLOW);
    await put(c, { ...RULE_OFF, deny: ["198.51.100.0/24", "2001:db8::/32", "203.0.113.77"] });
    const refused = await visit(c, "198.51.100.9:40001");
    expect(refused.body).toEqual({ reject: true, reject_reason: expect.stringContaining("拒绝列表") });
    expect((await visit(c, "[2001:db8::7]:443")).body.reject).toBe(true);
    expect((await visit(c, "203.0.113.77:1")).body.reject).toBe(true);
    expect((await visit(c, "203.0.113.78:1")).body).toEqual(ALLOW);
    expect((await visit(c, "[2001:db9::7]:443")).body).toEqual(ALLOW);
  });

  it("refuses an IPv4 visitor on ::/0 (it holds every address, IPv4-mapped ones too)", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, deny: ["::/0"] });
    expect((await visit(c, "198.51.100.9:1")).body.reject).toBe(true);
    expect((await visit(c, "[2001:db9::7]:443")).body.reject).toBe(true);
    await put(c, { ...RULE_OFF, deny: ["fe80::/10"] });
    expect((await visit(c, "[fe80::1%eth0]:22")).body.reject).toBe(true);
    expect((await visit(c, "198.51.100.9:2")).body).toEqual(ALLOW);
  });

  it("with an allow list, refuses every address not on it", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, allow: ["192.0.2.0/28", "fd00::/8"] });
    expect((await visit(c, "192.0.2.15:1")).body).toEqual(ALLOW);
    expect((await visit(c, "[fd12::1]:1")).body).toEqual(ALLOW);
    const out = await visit(c, "192.0.2.16:1");
    expect(out.body).toEqual({ reject: true, reject_reason: expect.stringContaining("允许列表") });
  });

  it("bans an address past the rule, lists the ban with its expiry, and lets it in once lifted", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, rule_enabled: true, conns: 3, window_s: 60, ban_s: 600 });
    for (let port = 1; port <= 3; port++) expect((await visit(c, `198.51.100.20:${port}`)).body).toEqual(ALLOW);
    const banned = await visit(c, "198.51.100.20:4");
    expect(banned.body).toEqual({ reject: true, reject_reason: expect.stringContaining("已被自动封禁") });
    // another address is not affected
    expect((await visit(c, "198.51.100.21:1")).body).toEqual(ALLOW);
    await flush();
    const list = await bans(c);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ ip: "198.51.100.20", reason: "60 秒内新建连接超过 3 次" });
    const left = Date.parse(list[0].until) - Date.now();
    expect(left).toBeGreaterThan(590_000);
    expect(left).toBeLessThanOrEqual(600_000);
    expect((await visit(c, "198.51.100.20:5")).body.reject).toBe(true);
    const lift = await t.api("DELETE", `/user/tun/${c.tcp.tun_id}/shield/bans/${list[0].id}`, { token: c.token });
    expect(lift.body.code).toBe("SUCCESS");
    expect(await bans(c)).toEqual([]);
    expect((await visit(c, "198.51.100.20:6")).body).toEqual(ALLOW);
    expect(
      (await t.api("DELETE", `/user/tun/${c.tcp.tun_id}/shield/bans/${list[0].id}`, { token: c.token })).status,
    ).toBe(404);
  });

  it("applies a ban another process recorded (the bans in force travel with the tunnel)", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, rule_enabled: true, conns: 1 });
    await visit(c, "198.51.100.30:1");
    await visit(c, "198.51.100.30:2");
    await flush();
    // A fresh process: nothing in memory but what the database says.
    frpRuntime(t.ctx).cache.clear();
    const user = await frpRuntime(t.ctx).cache.user(c.uid);
    expect(user?.tunnels.get(c.tcp.tun_id)?.shield?.bans.map((b) => b.ip)).toEqual(["198.51.100.30"]);
  });
});

describe("the bans' bounds", () => {
  it("bans an IPv6 visitor's whole /64 once, however many addresses it rotates through", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, rule_enabled: true, conns: 1, window_s: 86_400 });
    let let_in = 0;
    for (let i = 1; i <= 20; i++) if (!(await visit(c, `[2001:db8:2:7::${i}]:1`)).body.reject) let_in++;
    expect(let_in).toBe(1);
    await flush();
    expect((await bans(c)).map((b) => b.ip)).toEqual(["2001:db8:2:7::/64"]);
    expect((await visit(c, "[2001:db8:2:8::1]:1")).body).toEqual(ALLOW);
  });

  it("keeps the bans in force per tunnel at the cap, whoever decided them, and pages their list", async () => {
    const c = await customer();
    await put(c, { ...RULE_OFF, rule_enabled: true, conns: 1 });
    const now = Date.now();
    const decision = (i: number) => ({
      tun_id: c.tcp.tun_id,
      uid: c.uid,
      node_id: c.tcp.node_id,
      ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
      reason: "r",
      at: now,
      until: now + 3_600_000,
    });
    // several processes (or agents) decided more than the cap between them
    await recordShieldBans(
      t.ctx,
      Array.from({ length: SHIELD_BAN_CAP - 5 }, (_, i) => decision(i)),
    );
    await recordShieldBans(
      t.ctx,
      Array.from({ length: 20 }, (_, i) => decision(100_000 + i)),
    );
    // every row the tunnel has, lifted or not: the table itself stays at the cap
    const count = async () =>
      (await t.db.selectFrom("shield_bans").select("id").where("tun_id", "=", c.tcp.tun_id).execute()).length;
    expect(await count()).toBe(SHIELD_BAN_CAP);
    // at the cap this process bans no more: the visitor past the rule is let in, nothing is written
    expect((await visit(c, "198.51.100.70:1")).body).toEqual(ALLOW);
    expect((await visit(c, "198.51.100.70:2")).body).toEqual(ALLOW);
    await flush();
    expect(await count()).toBe(SHIELD_BAN_CAP);
    expect((await visit(c, "10.0.0.3:1")).body.reject).toBe(true);
    const page = await bansPage(c, "?page=3&size=7");
    expect(page).toMatchObject({ total: SHIELD_BAN_CAP, page: 3, size: 7 });
    expect(page.list).toHaveLength(7);
    const view = await t.api<ShieldView>("GET", `/user/tun/${c.tcp.tun_id}/shield`, { token: c.token });
    expect(view.body.data).toMatchObject({ bans: SHIELD_BAN_CAP, ban_cap: SHIELD_BAN_CAP });
    const bad = await t.api("GET", `/user/tun/${c.tcp.tun_id}/shield/bans?size=101`, { token: c.token });
    expect(bad.body).toMatchObject({ code: ErrorCode.InvalidParams, data: { field: "size" } });
  });
});

describe("an account's erasure", () => {
  it("takes its shield settings and the visitor addresses its bans recorded", async () => {
    const c = await customer();
    const keep = await customer();
    for (const x of [c, keep]) {
      await put(x, { ...RULE_OFF, deny: ["192.0.2.9"], rule_enabled: true, conns: 1 });
      await visit(x, "198.51.100.60:1");
      await visit(x, "198.51.100.60:2");
    }
    await flush();
    await eraseAccountTunnels(direct(t.ctx), c.uid);
    const left = (table: "tunnel_shields" | "shield_bans") =>
      t.db.selectFrom(table).select("uid").where("uid", "in", [c.uid, keep.uid]).execute();
    expect((await left("tunnel_shields")).map((r) => r.uid)).toEqual([keep.uid]);
    expect((await left("shield_bans")).map((r) => r.uid)).toEqual([keep.uid]);
  });
});
