import {
  type AdminNodeDetail,
  type AdminTunnelRow,
  type IllegalFlagRow,
  MASKED_PASSWORD,
  type Paged,
  type TunnelView,
} from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { tunnelSuite } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan, tunnelRow } from "../../../test/frp-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
tunnelSuite((ready) => ({ t, admin, node } = ready), { host: "203.0.113.50" });

const customer = () => registerWithPlan(t);

describe("tunnel management (/super/tun)", () => {
  it("masks the customer's http basic-auth password from operators, and an edit sending the mask back keeps it", async () => {
    const a = await customer();
    const web = await createTestTunnel(t, a.token, {
      node_id: node.node_id,
      tun_name: "masked-auth",
      protocol: "http",
      local_port: 8080,
      subdomain: `masked${Date.now() % 100000}`,
      addon: { http_user: "alice", http_password: "s3cret-pass" },
    });
    const list = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query: { uid: a.uid } });
    expect(list.body.data.list[0].addon).toEqual({ http_user: "alice", http_password: MASKED_PASSWORD });
    expect(JSON.stringify(list.body)).not.toContain("s3cret-pass");

    const edited = await t.api<AdminTunnelRow>("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: web.tun_id, addon: { ...list.body.data.list[0].addon, host_header_rewrite: "app.local" } },
    });
    expect(edited.body.data.addon.http_password).toBe(MASKED_PASSWORD);
    const own = await t.api<TunnelView>("GET", `/user/tun/${web.tun_id}`, { token: a.token });
    expect(own.body.data.addon).toEqual({
      http_user: "alice",
      http_password: "s3cret-pass",
      host_header_rewrite: "app.local",
    });

    // A real new password from the operator replaces it.
    await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: web.tun_id, addon: { http_user: "alice", http_password: "reset-by-op" } },
    });
    const after = await t.api<TunnelView>("GET", `/user/tun/${web.tun_id}`, { token: a.token });
    expect(after.body.data.addon.http_password).toBe("reset-by-op");
  });

  it("lists every customer's tunnels with owner, filtered by user, phone, node, protocol, status and name", async () => {
    const a = await customer();
    const b = await customer();
    const ta = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "admin-list-a" });
    await createTestTunnel(t, b.token, { node_id: node.node_id, tun_name: "admin-list-b", protocol: "udp" });
    const byUid = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query: { uid: a.uid } });
    expect(byUid.body.data.list.map((x) => x.tun_id)).toEqual([ta.tun_id]);
    expect(byUid.body.data.list[0]).toMatchObject({ phone: a.phone, node_name: node.name, cur_conns: 0 });
    const byPhone = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { phone: b.phone.slice(-6) },
    });
    expect(byPhone.body.data.list.map((x) => x.tun_name)).toEqual(["admin-list-b"]);
    const combo = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { node_id: node.node_id, protocol: "udp", status: 2, name: "admin-list" },
    });
    expect(combo.body.data.list.map((x) => x.tun_name)).toEqual(["admin-list-b"]);
    await t.api("DELETE", "/user/tun", { token: a.token, body: { tun_id: ta.tun_id } });
    const live = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query: { uid: a.uid } });
    expect(live.body.data.total).toBe(0);
    const deleted = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { uid: a.uid, status: -1 },
    });
    expect(deleted.body.data.list.map((x) => x.tun_id)).toEqual([ta.tun_id]);
    const bad = await t.api("GET", "/super/tun/list", { token: admin, query: { protocol: "ftp" } });
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("protocol");
  });

  it("leaves out deleted tunnels whose node was deleted after them, from the rows and from the total", async () => {
    const a = await customer();
    const gone = await createTestNode(t, {}, admin);
    const kept = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "kept-node" });
    const lost = await createTestTunnel(t, a.token, { node_id: gone.node_id, tun_name: "gone-node" });
    for (const x of [kept, lost]) await t.api("DELETE", "/user/tun", { token: a.token, body: { tun_id: x.tun_id } });
    const del = await t.api("DELETE", "/super/node", { token: admin, body: { node_id: gone.node_id } });
    expect(del.body.code).toBe("SUCCESS");
    const deleted = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { uid: a.uid, status: -1 },
    });
    expect(deleted.body.data).toMatchObject({ total: 1, list: [{ tun_id: kept.tun_id, node_name: node.name }] });
    const live = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query: { uid: a.uid } });
    expect(live.body.data).toMatchObject({ total: 0, list: [] });
  });

  it("lists a tunnel whose node row is missing with its own row, so a page is never cut short by a join", async () => {
    const a = await customer();
    const now = new Date().toISOString();
    // as an older version could leave one (a creation racing the node's deletion)
    await t.db
      .insertInto("tunnels")
      .values(tunnelRow({ uid: a.uid, node_id: 987_654, tun_name: "stray", remote_port: 20001 }, now))
      .execute();
    const own = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "homed" });
    const list = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { uid: a.uid, page: 1, size: 1 },
    });
    expect(list.body.data).toMatchObject({ total: 2, list: [{ tun_id: own.tun_id }] });
    const second = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { uid: a.uid, page: 2, size: 1 },
    });
    expect(second.body.data).toMatchObject({
      total: 2,
      list: [{ tun_name: "stray", node_name: "", node_id: 987_654 }],
    });
    const detail = await t.api<AdminTunnelRow>("GET", "/super/tun/detail", {
      token: admin,
      query: { tun_id: second.body.data.list[0].tun_id },
    });
    expect(detail.body.data).toMatchObject({ tun_name: "stray", node_name: "" });
  });

  it("pages a filtered list exactly: each page is its slice of the whole list, newest first, with its joined columns", async () => {
    const a = await customer();
    const made: number[] = [];
    for (let i = 0; i < 7; i++) {
      const tun = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: `paged-${i}` });
      made.push(tun.tun_id);
    }
    await t.api("DELETE", "/user/tun", { token: a.token, body: { tun_id: made[3] } });
    const live = made.filter((id) => id !== made[3]).reverse();
    const whole = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { uid: a.uid, size: 100 },
    });
    expect(whole.body.data.list.map((x) => x.tun_id)).toEqual(live);
    for (const size of [1, 2, 4]) {
      for (let page = 1; page <= Math.ceil(live.length / size) + 1; page++) {
        const op = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
          token: admin,
          query: { uid: a.uid, page, size },
        });
        expect(op.body.data).toMatchObject({ total: live.length, page, size });
        expect(op.body.data.list).toEqual(whole.body.data.list.slice((page - 1) * size, page * size));
        const own = await t.api<Paged<TunnelView>>("GET", "/user/tun", { token: a.token, query: { page, size } });
        expect(own.body.data.total).toBe(live.length);
        expect(own.body.data.list.map((x) => [x.tun_id, x.node_name])).toEqual(
          live.slice((page - 1) * size, page * size).map((id) => [id, node.name]),
        );
      }
    }
  });

  it('shows no phone ("") for an owner without one; a phone search never finds that owner\'s placeholder', async () => {
    await t.api("POST", "/super/tun/illegal/rule", { token: admin, body: { kind: "keyword", value: "ownerless" } });
    const [a, b] = [await customer(), await customer()];
    const ta = await createTestTunnel(t, a.token, { node_id: node.node_id, tun_name: "ownerless-a" });
    const tb = await createTestTunnel(t, b.token, { node_id: node.node_id, tun_name: "ownerless-b" });
    // The placeholder's tail holds a's old digits: a search for them would find it if it were not left out.
    await dropPhone(t, a.uid);
    const tunnels = (query: Record<string, unknown>) =>
      t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query });
    const flags = (uid: number) =>
      t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", { token: admin, query: { uid } });
    for (const [c, tun, phone] of [
      [a, ta, ""],
      [b, tb, b.phone],
    ] as const) {
      expect((await tunnels({ uid: c.uid })).body.data.list.map((x) => [x.tun_id, x.phone])).toEqual([
        [tun.tun_id, phone],
      ]);
      expect((await flags(c.uid)).body.data.list.map((f) => [f.tun_id, f.phone])).toEqual([[tun.tun_id, phone]]);
    }
    for (const phone of [a.phone.slice(-6), "nophone", "x"]) {
      const r = await tunnels({ uid: a.uid, phone });
      expect([phone, r.body.data.total, r.body.data.list]).toEqual([phone, 0, []]);
    }
    const byB = await tunnels({ phone: b.phone.slice(-6) });
    expect(byB.body.data.list.map((x) => x.tun_id)).toEqual([tb.tun_id]);
  });

  it("locks with a reason, unlocks clearing it, renames, edits the addon, and audits each write", async () => {
    const u = await customer();
    const x = await createTestTunnel(t, u.token, {
      node_id: node.node_id,
      protocol: "http",
      subdomain: `lock${u.uid}`,
    });
    const noReason = await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: x.tun_id, status: 3 } });
    expect(noReason.body.code).toBe(10000);
    expect(noReason.body.msg).toContain("banned_reason");
    const badStatus = await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: x.tun_id, status: 1 } });
    expect(badStatus.body.msg).toContain("status");
    const lonely = await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: x.tun_id, banned_reason: "x" } });
    expect(lonely.body.code).toBe(10000);

    const locked = await t.api<AdminTunnelRow>("PATCH", "/super/tun", {
      token: admin,
      body: {
        tun_id: x.tun_id,
        status: 3,
        banned_reason: "钓鱼网站",
        tun_name: "renamed",
        addon: { http_user: "ops" },
      },
    });
    expect(locked.body.data).toMatchObject({
      status: 3,
      banned_reason: "钓鱼网站",
      tun_name: "renamed",
      addon: { http_user: "ops" },
    });
    const reason = await t.api<AdminTunnelRow>("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: x.tun_id, banned_reason: "诈骗" },
    });
    expect(reason.body.data.banned_reason).toBe("诈骗");
    // the owner sees the lock and cannot edit or delete the tunnel
    const seen = await t.api<TunnelView>("GET", `/user/tun/${x.tun_id}`, { token: u.token });
    expect(seen.body.data).toMatchObject({ status: 3, banned_reason: "诈骗" });
    expect(
      (await t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: x.tun_id, enabled: false } })).body.code,
    ).toBe(2001);
    expect((await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: x.tun_id } })).body.code).toBe(2001);
    expect((await t.api("GET", "/user/tun/config", { token: u.token, query: { tun_id: x.tun_id } })).body.code).toBe(
      2001,
    );

    const unlocked = await t.api<AdminTunnelRow>("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: x.tun_id, status: 2 },
    });
    expect(unlocked.body.data).toMatchObject({ status: 2, banned_reason: null });
    const actions = await t.db
      .selectFrom("audit_logs")
      .select("action")
      .where("target", "=", `tunnel:${x.tun_id}`)
      .execute();
    expect(actions).toHaveLength(3);

    const del = await t.api<AdminTunnelRow>("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: x.tun_id, status: -1 },
    });
    expect(del.body.data.status).toBe(-1);
    expect(
      (await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: x.tun_id, tun_name: "again" } })).body.code,
    ).toBe(2001);
    expect(
      (await t.api("GET", "/super/tun/detail", { token: admin, query: { tun_id: x.tun_id } })).body.data,
    ).toMatchObject({
      status: -1,
    });
  });

  it("refuses a name the owner already uses and addon options on tcp", async () => {
    const u = await customer();
    await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: "taken-name" });
    const y = await createTestTunnel(t, u.token, { node_id: node.node_id });
    expect(
      (await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: y.tun_id, tun_name: "taken-name" } })).body
        .code,
    ).toBe(40008);
    const addon = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: y.tun_id, addon: { http_user: "x" } },
    });
    expect(addon.body.msg).toContain("addon");
    expect((await t.api("PATCH", "/super/tun", { token: admin, body: { tun_id: 999999, status: 2 } })).status).toBe(
      404,
    );
  });
});

describe("access", () => {
  it("refuses the operators' tunnel calls to customers", async () => {
    const u = await customer();
    for (const [method, url] of [
      ["GET", "/super/tun/list"],
      ["PATCH", "/super/tun"],
      ["GET", "/super/tun/illegal"],
      ["PATCH", "/super/tun/illegal"],
      ["POST", "/super/tun/illegal/rule"],
      ["GET", "/super/tun/conns"],
      ["GET", "/super/flow"],
    ] as const) {
      const r = await t.api(method, url, { token: u.token, body: method === "GET" ? undefined : {} });
      expect(r.status, url).toBe(403);
      expect(r.body.code).toBe(30004);
    }
  });

  it("names bad dates of the traffic queries", async () => {
    const u = await customer();
    const bad = await t.api("GET", "/user/traffic", { token: u.token, query: { start_date: "2024/01/01" } });
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("start_date");
    const reversed = await t.api("GET", "/super/flow", {
      token: admin,
      query: { start_date: "2025-02-01", end_date: "2025-01-01" },
    });
    expect(reversed.body.msg).toContain("start_date");
    const long = await t.api("GET", "/super/flow", {
      token: admin,
      query: { start_date: "2020-01-01", end_date: "2025-01-01" },
    });
    expect(long.body.code).toBe(10000);
  });
});
