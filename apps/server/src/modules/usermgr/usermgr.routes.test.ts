import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

type Paged<T> = { list: T[]; total: number; page: number; size: number };
type Row = { uid: number; phone: string; status: number; role: number; balance: number };

describe("user list and detail", () => {
  it("searches by phone, uid, status and role, paged", async () => {
    const a = await t.register();
    await t.register();
    const byPhone = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { phone: a.phone } });
    expect(byPhone.body.data.list.map((u) => u.uid)).toEqual([a.uid]);
    const byUid = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { uid: a.uid } });
    expect(byUid.body.data.total).toBe(1);
    const managers = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { role: 3 } });
    expect(managers.body.data.list.every((u) => u.role === 3)).toBe(true);
    const paged = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { page: 1, size: 1 } });
    expect(paged.body.data.list).toHaveLength(1);
    expect(paged.body.data.total).toBeGreaterThanOrEqual(3);
    // Every page (its uids picked first, then their rows) is its slice of the whole list.
    const whole = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { size: 100 } });
    for (const size of [1, 2])
      for (let page = 1; page <= Math.ceil(whole.body.data.total / size); page++) {
        const r = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: { page, size } });
        expect(r.body.data.list).toEqual(whole.body.data.list.slice((page - 1) * size, page * size));
      }
    const today = new Date(Date.now() + 8 * 3600e3).toISOString().slice(0, 10);
    const byDate = await t.api<Paged<Row>>("GET", "/super/user/list", {
      token: admin,
      query: { start_date: today, end_date: today },
    });
    expect(byDate.body.data.total).toBeGreaterThanOrEqual(3);
    // A date range's pages (picked from users_created_at first) are newest first like the rest.
    const datePage = async (page: number) =>
      (
        await t.api<Paged<Row>>("GET", "/super/user/list", {
          token: admin,
          query: { start_date: today, end_date: today, page, size: 1 },
        })
      ).body.data;
    const [first, second] = [await datePage(1), await datePage(2)];
    expect(first.total).toBe(byDate.body.data.total);
    expect([first.list[0].uid, second.list[0].uid]).toEqual(byDate.body.data.list.slice(0, 2).map((u) => u.uid));
    expect(first.list[0].uid).toBeGreaterThan(second.list[0].uid);
    const bad = await t.api("GET", "/super/user/list", { token: admin, query: { start_date: "yesterday" } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("start_date");
  });

  it("lists a date range newest registration first, each page its slice", async () => {
    // Registered on a day of their own, the later uid with the earlier time (a clock stepped back).
    const [a, b, c] = [await t.register(), await t.register(), await t.register()];
    const at = (uid: number, iso: string) =>
      t.db.updateTable("users").set({ created_at: iso }).where("uid", "=", uid).execute();
    await at(a.uid, "2026-03-02T03:00:00.000Z");
    await at(b.uid, "2026-03-02T01:00:00.000Z");
    await at(c.uid, "2026-03-02T02:00:00.000Z");
    const range = { start_date: "2026-03-02", end_date: "2026-03-02" };
    const whole = await t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query: range });
    expect(whole.body.data.list.map((u) => u.uid)).toEqual([a.uid, c.uid, b.uid]);
    for (let page = 1; page <= 4; page++) {
      const r = await t.api<Paged<Row>>("GET", "/super/user/list", {
        token: admin,
        query: { ...range, page, size: 1 },
      });
      expect([r.body.data.total, r.body.data.list]).toEqual([3, whole.body.data.list.slice(page - 1, page)]);
    }
  });

  it("never finds an account without a phone by a phone search, whatever its placeholder holds", async () => {
    const [a, b] = [await t.register(), await t.register()];
    // The placeholder's tail holds a's old digits.
    await dropPhone(t, a.uid);
    const list = (query: Record<string, unknown>) =>
      t.api<Paged<Row>>("GET", "/super/user/list", { token: admin, query });
    expect((await list({ uid: a.uid })).body.data.list.map((u) => u.phone)).toEqual([""]);
    for (const phone of [a.phone, a.phone.slice(-6), "nophone"]) {
      const r = await list({ uid: a.uid, phone });
      expect([phone, r.body.data.total, r.body.data.list]).toEqual([phone, 0, []]);
    }
    expect((await list({ phone: b.phone })).body.data.list.map((u) => [u.uid, u.phone])).toEqual([[b.uid, b.phone]]);
  });

  it("shows a user's detail and login history", async () => {
    const a = await t.register();
    const d = await t.api<Row & { ledger: unknown[]; invite_code: string }>("GET", "/super/user/detail", {
      token: admin,
      query: { uid: a.uid },
    });
    expect(d.body.data).toMatchObject({ uid: a.uid, phone: a.phone, ledger: [] });
    const logins = await t.api<Paged<unknown>>("GET", "/super/user/loginList", {
      token: admin,
      query: { uid: a.uid, page: 1, size: 10 },
    });
    expect(logins.body.data.total).toBe(1);
    const missing = await t.api("GET", "/super/user/detail", { token: admin, query: { uid: 999999 } });
    expect(missing.status).toBe(404);
    const bad = await t.api("GET", "/super/user/detail", { token: admin, query: {} });
    expect(bad.body.msg).toContain("uid");
  });
});

describe("admin writes", () => {
  it("bans a user, revoking sessions at once, and unbans", async () => {
    const a = await t.register();
    const noReason = await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: a.uid, status: -1 } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toContain("ban_reason");
    const ban = await t.api<Row>("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: a.uid, status: -1, ban_reason: "滥用" },
    });
    expect(ban.body.data.status).toBe(-1);
    // Told the ban and its reason (30005, issue 35 §11), the session stays revoked.
    const next = await t.api("GET", "/user/userInfo", { token: a.token });
    expect([next.body.code, next.body.msg]).toEqual([30005, "账号已被封禁：滥用"]);
    const login = await t.api("POST", "/auth/login", { body: { phone: a.phone, password: a.password } });
    expect(login.body.code).toBe(30005);
    expect(login.body.msg).toContain("滥用");
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: a.uid, status: 1 } });
    await t.login(a.phone, a.password);
  });

  it("adjusts the balance with a ledger row, never below zero", async () => {
    const a = await t.register();
    const up = await t.api<Row & { ledger: { change: number; balance_after: number; reason: string }[] }>(
      "PATCH",
      "/super/user/info",
      { token: admin, body: { uid: a.uid, balance_change: 1500, balance_reason: "补偿" } },
    );
    expect(up.body.data.balance).toBe(1500);
    expect(up.body.data.ledger[0]).toMatchObject({ change: 1500, balance_after: 1500 });
    const over = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: a.uid, balance_change: -2000, balance_reason: "扣除" },
    });
    expect(over.body.code).toBe(20011);
    const frac = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: a.uid, balance_change: 1.5, balance_reason: "x" },
    });
    expect(frac.body.msg).toContain("balance_change");
    const info = await t.api<{ balance: number }>("GET", "/user/userInfo", { token: a.token });
    expect(info.body.data.balance).toBe(1500);
  });

  it("changes role and resets the password; every write is audited", async () => {
    const a = await t.register();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: a.uid, role: 2, password: "reset-pass-1" } });
    expect((await t.api("GET", "/user/userInfo", { token: a.token })).body.code).toBe(30003);
    const staff = await t.login(a.phone, "reset-pass-1");
    expect((await t.api("GET", "/super/user/list", { token: staff })).body.code).toBe("SUCCESS");
    const write = await t.api("PATCH", "/super/user/info", { token: staff, body: { uid: a.uid, nickname: "x" } });
    expect(write.status).toBe(403);
    const audit = await t.api<Paged<{ action: string; target: string; detail: string }>>("GET", "/super/audit", {
      token: admin,
      query: { action: "user.update" },
    });
    const mine = audit.body.data.list.find((r) => r.target === `user:${a.uid}`);
    expect(mine).toBeDefined();
    expect(mine?.detail).not.toContain("reset-pass-1");
  });

  it("refuses to ban yourself", async () => {
    const me = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: admin });
    const r = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: me.body.data.uid, status: -1, ban_reason: "x" },
    });
    expect(r.body.code).toBe(2001);
  });
});

describe("overview", () => {
  it("counts users and sign-ups per day for 30 days", async () => {
    await t.register();
    const r = await t.api<{ users_total: number; users_today: number; signups: { date: string; count: number }[] }>(
      "GET",
      "/super/viewInfo",
      { token: admin },
    );
    expect(r.body.data.signups).toHaveLength(30);
    expect(r.body.data.users_today).toBeGreaterThanOrEqual(1);
    expect(r.body.data.signups.at(-1)?.count).toBe(r.body.data.users_today);
  });
});
