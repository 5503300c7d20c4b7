import type { TunnelUptime } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { giveBalance } from "../../../test/store-fixtures";
import { DAY_MS } from "../../shared/time";
import { newEndpointRow } from "../webhooks/webhooks.service";
import { eraseDueAccounts } from "./erasure";

let t: TestApp;
let admin: string;
adminSuite((s) => ({ t, admin } = s));

let nodeId: number;
beforeAll(async () => {
  nodeId = (await createTestNode(t)).node_id;
});

/** A customer on a plan with one tunnel, one ticket, one (unpaid, online) recharge order, one custom domain. */
async function customerWithData(tag: string) {
  const u = await registerWithPlan(t);
  const tun = await createTestTunnel(t, u.token, { node_id: nodeId, tun_name: `tun-${tag}` });
  const ticket = await t.api("POST", "/user/ticket", {
    token: u.token,
    body: { title: `ticket-${tag}`, category: "other", content: `text-${tag}` },
  });
  expect(ticket.body.code).toBe("SUCCESS");
  const order = await t.api<{ trade_id: string }>("POST", "/user/order", {
    token: u.token,
    body: { type: 1, amount: 1000, pay_method: 2 },
  });
  expect(order.body.code).toBe("SUCCESS");
  const at = new Date().toISOString();
  await t.db
    .insertInto("domains")
    .values({
      uid: u.uid,
      domain: `${tag}.example.com`,
      node_id: nodeId,
      token: `tok-${tag}`,
      status: "pending",
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { ...u, tun, tradeId: order.body.data.trade_id };
}

/** GET /user/leaving/export through inject, with its headers. */
async function download(token: string) {
  const res = await t.app.inject({
    method: "GET",
    url: "/api/user/leaving/export",
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, headers: res.headers, text: res.body };
}

const deletionBody = (password: string, over: Record<string, unknown> = {}) => ({
  password,
  confirm: "注销账号",
  ...over,
});

const tunnelRow = (tunId: number) =>
  t.db.selectFrom("tunnels").select(["enabled", "status"]).where("tun_id", "=", tunId).executeTakeFirstOrThrow();

describe("data export", () => {
  it("holds the customer's own data only, never another customer's nor a secret", async () => {
    const a = await customerWithData("alpha");
    const b = await customerWithData("bravo");
    const r = await download(a.token);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/vnd.burrow.export+json; charset=utf-8");
    expect(r.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="burrow-export-${a.uid}-.*\\.json"$`),
    );
    const data = JSON.parse(r.text);
    expect(data.profile.uid).toBe(a.uid);
    expect(data.profile.phone).toBe(a.phone);
    expect(data.tunnels.map((x: { tun_name: string }) => x.tun_name)).toEqual(["tun-alpha"]);
    expect(data.tickets.map((x: { title: string }) => x.title)).toEqual(["ticket-alpha"]);
    expect(data.tickets[0].messages[0].content).toBe("text-alpha");
    expect(data.orders.map((o: { trade_id: string }) => o.trade_id)).toEqual([a.tradeId]);
    expect(data.domains.map((d: { domain: string }) => d.domain)).toEqual(["alpha.example.com"]);
    expect(data.sessions.length).toBeGreaterThan(0);
    // nothing of B, and none of A's secrets
    const secrets = await t.db
      .selectFrom("users")
      .select(["frp_token", "password_hash"])
      .where("uid", "=", a.uid)
      .executeTakeFirstOrThrow();
    for (const absent of [
      b.phone,
      "tun-bravo",
      "ticket-bravo",
      b.tradeId,
      "bravo.example.com",
      "tok-alpha",
      secrets.frp_token,
      secrets.password_hash,
    ])
      expect(r.text).not.toContain(absent);
  });

  it("needs a recent sign-in and allows 3 an hour", async () => {
    const u = await t.register();
    // the session signed in an hour ago: refused, and not counted
    await t.db
      .updateTable("sessions")
      .set({ created_at: new Date(Date.now() - 3600_000).toISOString() })
      .where("uid", "=", u.uid)
      .execute();
    const old = await download(u.token);
    expect(old.status).toBe(403);
    expect(JSON.parse(old.text).msg).toContain("重新登录");
    const fresh = await t.login(u.phone, u.password);
    for (let i = 0; i < 3; i++) expect((await download(fresh)).status).toBe(200);
    expect((await download(fresh)).status).toBe(429);
  });
});

describe("account deletion", () => {
  it("prechecks what the form must ask: the money left and whether a second-factor code is needed", async () => {
    const u = await t.register();
    await giveBalance(t, u.uid, 250);
    const r = await t.api("GET", "/user/leaving/precheck", { token: u.token });
    expect(r.body.data).toEqual({ balance: 250, affiliate_available: 0, totp: false, passkey: false });
  });

  it("refuses bad input naming the field, changing nothing", async () => {
    const u = await customerWithData("charlie");
    await giveBalance(t, u.uid, 500);
    const cases: [Record<string, unknown>, string][] = [
      [deletionBody(u.password, { confirm: "删除" }), "confirm"],
      [deletionBody("wrong-password"), "password"],
      [deletionBody(u.password), "forfeit"], // ¥5.00 left and not forfeited
    ];
    for (const [body, field] of cases) {
      const r = await t.api("POST", "/user/leaving", { token: u.token, body });
      expect([field, r.status, r.body.code]).toEqual([field, 400, 10000]);
      expect(r.body.msg).toContain(field);
    }
    expect(await t.db.selectFrom("account_deletions").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
    expect((await tunnelRow(u.tun.tun_id)).enabled).toBe(1);
    expect((await t.api("GET", "/user/leaving", { token: u.token })).body.data).toBeNull();
  });

  it("stops the tunnels and signs out other sessions; cancelling restarts them and sign-in works", async () => {
    const u = await customerWithData("delta");
    const other = await t.login(u.phone, u.password);
    const publicPage = (token: string, enabled: boolean) =>
      t.api<TunnelUptime>("PUT", `/user/tun/${u.tun.tun_id}/uptime/public`, { token, body: { enabled } });
    expect((await publicPage(u.token, true)).body.code).toBe("SUCCESS");
    const before = Date.now();
    const r = await t.api<{ executes_at: string; status: string }>("POST", "/user/leaving", {
      token: u.token,
      body: deletionBody(u.password),
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.status).toBe("pending");
    const due = Date.parse(r.body.data.executes_at) - before;
    expect(due).toBeGreaterThanOrEqual(7 * DAY_MS - 1000);
    expect(due).toBeLessThan(7 * DAY_MS + 60_000);
    expect((await tunnelRow(u.tun.tun_id)).enabled).toBe(0);
    expect((await t.api("GET", "/user/userInfo", { token: other })).status).toBe(401);
    // a second request while one is pending is refused
    expect((await t.api("POST", "/user/leaving", { token: u.token, body: deletionBody(u.password) })).status).toBe(403);
    // the banner's data, after signing in again during the cool-off
    const again = await t.login(u.phone, u.password);
    // no tunnel starts during the cool-off: neither switched back on by hand nor created
    const on = await t.api("PATCH", "/user/tun", { token: again, body: { tun_id: u.tun.tun_id, enabled: true } });
    expect(on.status).toBe(403);
    expect(on.body.msg).toContain("注销");
    expect((await tunnelRow(u.tun.tun_id)).enabled).toBe(0);
    const made = await t.api("POST", "/user/tun", {
      token: again,
      body: { node_id: u.tun.node_id, tun_name: "during", protocol: "tcp", local_port: 22, remote_port: 0 },
    });
    expect(made.status).toBe(403);
    // nor is a public status page turned on (turning one off stays allowed)
    expect((await publicPage(again, false)).body.data.public_page.enabled).toBe(false);
    const published = await publicPage(again, true);
    expect([published.status, published.body.code]).toEqual([403, 2001]);
    expect(published.body.msg).toContain("注销冷静期");
    const page = await t.db.selectFrom("uptime_pages").select("enabled").where("tun_id", "=", u.tun.tun_id).execute();
    expect(page).toEqual([{ enabled: 0 }]);
    const banner = await t.api<{ executes_at: string }>("GET", "/user/leaving", { token: again });
    expect(banner.body.data.executes_at).toBe(r.body.data.executes_at);
    expect((await t.api("DELETE", "/user/leaving", { token: again })).body.code).toBe("SUCCESS");
    expect((await tunnelRow(u.tun.tun_id)).enabled).toBe(1);
    expect((await publicPage(again, true)).body.data.public_page.enabled).toBe(true);
    expect((await t.api("GET", "/user/leaving", { token: again })).body.data).toBeNull();
    expect(await t.login(u.phone, u.password)).toBeTruthy();
    // nothing left to erase
    expect(await eraseDueAccounts(t.ctx, new Date(Date.now() + 8 * DAY_MS))).toBe(0);
  });

  it("erases personal data after 7 days, keeps orders and the ledger, frees the phone; the job twice is once", async () => {
    const u = await customerWithData("echo");
    await giveBalance(t, u.uid, 300);
    // a public status page of the tunnel: its slug goes with the account
    const page = await t.api("PUT", `/user/tun/${u.tun.tun_id}/uptime/public`, {
      token: u.token,
      body: { enabled: true },
    });
    expect(page.body.code).toBe("SUCCESS");
    const at = new Date().toISOString();
    await t.db
      .insertInto("verifications")
      .values({
        uid: u.uid,
        status: 1,
        real_name_masked: "张*",
        id_number_masked: "1101**********1234",
        provider: "manual",
        created_at: at,
        updated_at: at,
      })
      .execute();
    await t.db
      .insertInto("notice_emails")
      .values({
        uid: u.uid,
        email: "echo@example.com",
        verified_at: at,
        code_hash: null,
        code_expires_at: null,
        updated_at: at,
      })
      .execute();
    await t.db
      .insertInto("webhook_endpoints")
      .values(
        newEndpointRow(
          { uid: u.uid, url: "https://hooks.example.com/echo", description: "", events: "[]", secret: "sealed" },
          at,
        ),
      )
      .execute();
    const tokenMade = await t.api("POST", "/user/apiToken", {
      token: u.token,
      body: { name: "ci", scopes: ["tunnels:read"] },
    });
    expect(tokenMade.body.code).toBe("SUCCESS");
    expect((await t.api("POST", "/user/launch", { token: u.token })).body.code).toBe("SUCCESS");
    const r = await t.api("POST", "/user/leaving", {
      token: u.token,
      body: deletionBody(u.password, { forfeit: true }),
    });
    expect(r.body.code).toBe("SUCCESS");
    // a passkey added during the cool-off (one before it would have been asked to confirm the request)
    await t.db
      .insertInto("passkeys")
      .values({
        uid: u.uid,
        credential_id: `cred-${u.uid}`,
        public_key: "pk",
        counter: 0,
        transports: "[]",
        name: "手机",
        created_at: at,
        last_used_at: null,
      })
      .execute();

    // not before the cool-off ends
    expect(await eraseDueAccounts(t.ctx, new Date(Date.now() + 6 * DAY_MS))).toBe(0);
    expect(
      (await t.db.selectFrom("users").select("phone").where("uid", "=", u.uid).executeTakeFirstOrThrow()).phone,
    ).toBe(u.phone);

    // two runs at once (two processes): erased once
    const later = new Date(Date.now() + 7 * DAY_MS + 60_000);
    const runs = await Promise.all([eraseDueAccounts(t.ctx, later), eraseDueAccounts(t.ctx, later)]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await eraseDueAccounts(t.ctx, later)).toBe(0);
    expect(await t.db.selectFrom("uptime_pages").selectAll().where("uid", "=", u.uid).execute()).toEqual([]);

    const user = await t.db.selectFrom("users").selectAll().where("uid", "=", u.uid).executeTakeFirstOrThrow();
    expect(user.phone).not.toContain(u.phone);
    expect(user).toMatchObject({
      real_name: null,
      id_number_masked: null,
      verify_status: 0,
      status: -2,
      balance: 0,
      avatar: "",
    });
    expect(user.nickname).toBe(`已注销用户${u.uid}`);
    const count = async (
      table:
        | "sessions"
        | "known_devices"
        | "login_logs"
        | "domains"
        | "verifications"
        | "api_tokens"
        | "launch_tokens"
        | "passkeys"
        | "notice_emails"
        | "webhook_endpoints",
    ) => (await t.db.selectFrom(table).select("uid").where("uid", "=", u.uid).execute()).length;
    for (const table of [
      "sessions",
      "known_devices",
      "login_logs",
      "domains",
      "verifications",
      "api_tokens",
      "launch_tokens",
      "passkeys",
      "notice_emails",
      "webhook_endpoints",
    ] as const)
      expect([table, await count(table)]).toEqual([table, 0]);
    const ticket = await t.db
      .selectFrom("tickets")
      .select(["id", "title"])
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    expect(ticket.title).not.toContain("echo");
    const messages = await t.db
      .selectFrom("ticket_messages")
      .select("content")
      .where("ticket_id", "=", ticket.id)
      .execute();
    expect(messages.map((m) => m.content).join()).not.toContain("echo");
    expect((await tunnelRow(u.tun.tun_id)).status).toBe(-1);
    // the order stays, pseudonymous
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", u.tradeId)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ uid: u.uid, amount: 1000, client_ip: null, pay_url: null });
    // the balance forfeited once, by a ledger line, the top-up's line kept
    const ledger = await t.db.selectFrom("balance_ledger").select("change").where("uid", "=", u.uid).execute();
    expect(ledger.map((l) => Number(l.change)).sort((a, b) => a - b)).toEqual([-300, 300]);
    // the old credentials are dead; the phone registers a new account
    const login = await t.api("POST", "/auth/login", { body: { phone: u.phone, password: u.password } });
    expect(login.status).toBe(400);
    // (the phone's one-a-minute SMS limit counted its registration a moment ago: a minute has passed for it)
    await t.ctx.limiter.reset(`sms:phone1m:${u.phone}:register`);
    const fresh = await t.register(u.phone);
    expect(fresh.uid).not.toBe(u.uid);

    // operators see it done
    const list = await t.api<{ list: { uid: number; status: string; erased_at: string | null }[] }>(
      "GET",
      "/super/leaving",
      {
        token: admin,
        query: { status: "done" },
      },
    );
    expect(list.body.data.list.find((d) => d.uid === u.uid)).toMatchObject({
      status: "done",
      erased_at: later.toISOString(),
    });
  });

  it("lists pending deletions to operators, not to customers", async () => {
    const u = await t.register();
    await t.api("POST", "/user/leaving", { token: u.token, body: deletionBody(u.password) });
    const list = await t.api<{ list: { uid: number; status: string; executes_at: string }[] }>(
      "GET",
      "/super/leaving",
      {
        token: admin,
        query: { status: "pending" },
      },
    );
    expect(list.body.data.list.find((d) => d.uid === u.uid)?.status).toBe("pending");
    expect((await t.api("GET", "/super/leaving", { token: u.token })).status).toBe(403);
  });
});
