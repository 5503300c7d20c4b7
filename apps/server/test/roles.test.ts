import type { CreateOrderResult, MenuItem } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registeredRoutes } from "../src/http/route";
import { createTestApp, type TestApp } from "./harness";
import { giveBalance, makePlan } from "./store-fixtures";

/**
 * Exactly which /super calls each role may make (issue 19 §5, docs/decisions.md "Roles"):
 * customers (1) none, support staff (2) the reads on this list and the ticket calls (they work the
 * support queue, appeals included) and nothing else, Managers (3) all.
 * The list is explicit: a route added as "staff" without being added here fails this test.
 */
const SUPPORT_ALLOWED = [
  "GET /super/roleMenu",
  "GET /super/viewInfo",
  "GET /super/user/list",
  "GET /super/user/detail",
  "GET /super/user/loginList",
  "GET /super/epay/order",
  "GET /super/epay/order/detail",
  "GET /super/plan/reg",
  "GET /super/ticket",
  "GET /super/ticket/:ticket_id",
  "POST /super/ticket/:ticket_id/reply",
  "POST /super/ticket/:ticket_id/close",
  "POST /super/ticket/:ticket_id/unlock",
  "GET /super/user/verify",
  "GET /super/verify/setting",
  // the verification queue (masked); a manual review's full data and photos are the deciding Managers' only
  "GET /super/verify/queue",
  // pending account deletions (users, read-only): support answers customers asking about theirs
  "GET /super/leaving",
].sort();

/** The only writes support staff may make: working tickets. */
const SUPPORT_WRITES = SUPPORT_ALLOWED.filter((k) => !k.startsWith("GET "));

let t: TestApp;
let customer: string;
let support: string;
let manager: string;
let buyer: { uid: number; tradeId: string; ticketId: number };
let reviewed: number;
beforeAll(async () => {
  t = await createTestApp();
  manager = await t.adminToken();
  customer = (await t.register()).token;
  const staffUser = await t.register();
  const promoted = await t.api("PATCH", "/super/user/info", { token: manager, body: { uid: staffUser.uid, role: 2 } });
  expect(promoted.body.code).toBe("SUCCESS");
  support = await t.login(staffUser.phone, staffUser.password);
  // Something for the support reads to find: a customer with an order and a plan.
  const u = await t.register();
  const plan = await makePlan(t, { monthly_fee: 500 });
  await giveBalance(t, u.uid, 1000);
  const o = await t.api<CreateOrderResult>("POST", "/user/order", {
    token: u.token,
    body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
  });
  const tk = await t.api<{ ticket_id: number }>("POST", "/user/ticket", {
    token: u.token,
    body: { title: "订单问题", category: "billing", content: "付款后未到账" },
  });
  buyer = { uid: u.uid, tradeId: o.body.data.trade_id, ticketId: tk.body.data.ticket_id };
  // A manual review (the sandbox takes one with photos) for the review reads to find.
  const r = await t.register();
  const fd = new FormData();
  fd.append("real_name", "张三");
  fd.append("id_number", "11010519491231002X");
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  for (const k of ["id_front", "id_back"]) fd.append(k, new Blob([png]), "a.png");
  const req = new Request("http://localhost/", { method: "POST", body: fd });
  const sent = await t.app.inject({
    method: "POST",
    url: "/api/user/verify/review",
    headers: { authorization: `Bearer ${r.token}`, "content-type": req.headers.get("content-type") ?? "" },
    payload: Buffer.from(await req.arrayBuffer()),
  });
  expect(sent.json().code).toBe("SUCCESS");
  reviewed = r.uid;
});
afterAll(() => t.close());

const superRoutes = () => [...registeredRoutes.keys()].filter((k) => k.split(" ")[1].startsWith("/super")).sort();

/**
 * Calls a route with placeholder input: enough to reach (or be stopped by) the role check. Not
 * every answer is JSON (the gift card export is CSV), so the envelope's code may be absent.
 */
const callBlind = async (key: string, token: string) => {
  const [method, url] = key.split(" ");
  const res = await t.app.inject({
    method: method as "GET",
    url: `/api${url.replace(/:(\w+)/g, "1")}`,
    headers: { authorization: `Bearer ${token}` },
    ...(method !== "GET" && { payload: {} }),
  });
  const json = res.headers["content-type"]?.toString().includes("json");
  return { status: res.statusCode, body: { code: json ? (res.json().code as string | number) : undefined } };
};

describe("the /super route table by role", () => {
  it("lists the routes the support list names, as staff: reads, and writes only on tickets", () => {
    const routes = superRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const staff = routes.filter((k) => registeredRoutes.get(k) === "staff");
    expect(staff).toEqual(SUPPORT_ALLOWED);
    expect(SUPPORT_WRITES.every((k) => k.startsWith("POST /super/ticket/"))).toBe(true);
    expect(
      routes.filter((k) => registeredRoutes.get(k) !== "staff").every((k) => registeredRoutes.get(k) === "manager"),
    ).toBe(true);
  });

  it("refuses a customer (role 1) on every /super route with 403", async () => {
    for (const key of superRoutes()) {
      const r = await callBlind(key, customer);
      expect([key, r.status, r.body.code]).toEqual([key, 403, 30004]);
    }
  });

  it("gives every role the customer pages, the frpc assistant (/aipage) included, with its calls open to customers", async () => {
    const paths = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...paths(i.children ?? [])]);
    for (const token of [customer, support, manager]) {
      const menu = await t.api<MenuItem[]>("GET", "/user/rolemenu", { token });
      expect(paths(menu.body.data)).toContain("/aipage");
    }
    const assistantRoutes = [...registeredRoutes.keys()].filter((k) => k.includes("/user/assistant/"));
    expect(assistantRoutes.length).toBe(6);
    for (const k of assistantRoutes) expect([k, registeredRoutes.get(k)]).toEqual([k, "user"]);
    const status = await t.api<{ configured: boolean }>("GET", "/user/assistant/status", { token: customer });
    expect([status.status, status.body.data.configured]).toEqual([200, false]);
  });

  it("refuses support staff (role 2) with 403 on every route not on the list, and changes nothing", async () => {
    const before = await t.db.selectFrom("audit_logs").select("id").execute();
    for (const key of superRoutes().filter((k) => !SUPPORT_ALLOWED.includes(k))) {
      const r = await callBlind(key, support);
      expect([key, r.status, r.body.code]).toEqual([key, 403, 30004]);
    }
    expect(await t.db.selectFrom("audit_logs").select("id").execute()).toHaveLength(before.length);
  });

  it("lets support staff make every call on the list, with real answers", async () => {
    const get = (url: string, query?: Record<string, unknown>) => t.api<never>("GET", url, { token: support, query });
    const menu = await t.api<MenuItem[]>("GET", "/super/roleMenu", { token: support });
    const answers: Record<string, { status: number; body: { code: string | number; data: unknown } }> = {
      "GET /super/roleMenu": menu,
      "GET /super/viewInfo": await get("/super/viewInfo"),
      "GET /super/user/list": await get("/super/user/list", { uid: buyer.uid }),
      "GET /super/user/detail": await get("/super/user/detail", { uid: buyer.uid }),
      "GET /super/user/loginList": await get("/super/user/loginList", { uid: buyer.uid }),
      "GET /super/epay/order": await get("/super/epay/order", { user_id: buyer.uid }),
      "GET /super/epay/order/detail": await get("/super/epay/order/detail", { trade_id: buyer.tradeId }),
      "GET /super/plan/reg": await get("/super/plan/reg", { user_id: buyer.uid }),
      "GET /super/ticket": await get("/super/ticket", { uid: buyer.uid }),
      "GET /super/ticket/:ticket_id": await get(`/super/ticket/${buyer.ticketId}`),
      "POST /super/ticket/:ticket_id/reply": await t.api<never>("POST", `/super/ticket/${buyer.ticketId}/reply`, {
        token: support,
        body: { content: "请提供付款截图", status: 3 },
      }),
      "POST /super/ticket/:ticket_id/close": await t.api<never>("POST", `/super/ticket/${buyer.ticketId}/close`, {
        token: support,
        body: {},
      }),
      "GET /super/user/verify": await get("/super/user/verify", { uid: buyer.uid }),
      "GET /super/verify/setting": await get("/super/verify/setting"),
      "GET /super/verify/queue": await get("/super/verify/queue"),
      "GET /super/leaving": await get("/super/leaving"),
    };
    // A manual review's full name, number and photos are refused to support (only Managers decide).
    const review = await get("/super/user/verify/review", { uid: reviewed });
    expect([review.status, review.body.code]).toEqual([403, 30004]);
    const photo = await t.app.inject({
      method: "GET",
      url: `/api/super/user/verify/photo?uid=${reviewed}&kind=id_front`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(photo.statusCode).toBe(403);
    // Unlock answers a refusal here (the ticket is no appeal), but past the role check; the appeal
    // test in modules/tickets covers the unlock itself.
    const unlock = await t.api<never>("POST", `/super/ticket/${buyer.ticketId}/unlock`, { token: support, body: {} });
    expect([unlock.status, unlock.body.code]).toEqual([403, 2001]);
    expect(Object.keys(answers).sort()).toEqual(SUPPORT_ALLOWED.filter((k) => !k.endsWith("/unlock")));
    for (const [key, r] of Object.entries(answers)) expect([key, r.status, r.body.code]).toEqual([key, 200, "SUCCESS"]);
    expect((answers["GET /super/user/list"].body.data as { total: number }).total).toBe(1);
    expect(answers["GET /super/user/detail"].body.data).toMatchObject({ uid: buyer.uid, balance: 500 });
    expect((answers["GET /super/epay/order"].body.data as { total: number }).total).toBe(1);
    expect(answers["GET /super/epay/order/detail"].body.data).toMatchObject({ trade_id: buyer.tradeId });
    expect(answers["GET /super/user/verify"].body.data).toMatchObject({ uid: buyer.uid, status: 0 });
    // The admin menu support sees has only pages backed by these reads.
    const paths = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...paths(i.children ?? [])]);
    expect(paths(menu.body.data).filter(Boolean).sort()).toEqual(
      ["/view", "/usermgr/list", "/mgr/ticket", "/verify/list", "/order", "/order/reg", "/dash", "/leaving"].sort(),
    );
  });

  it("support staff cannot write through the allowed paths either: refund, user edit, role change", async () => {
    const refund = await t.api("POST", "/super/epay/order/refund", {
      token: support,
      body: { trade_id: buyer.tradeId },
    });
    expect([refund.status, refund.body.code]).toEqual([403, 30004]);
    const edit = await t.api("PATCH", "/super/user/info", {
      token: support,
      body: { uid: buyer.uid, balance_change: 100_000, balance_reason: "x" },
    });
    expect([edit.status, edit.body.code]).toEqual([403, 30004]);
    const promote = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: support });
    const self = await t.api("PATCH", "/super/user/info", {
      token: support,
      body: { uid: promote.body.data.uid, role: 3 },
    });
    expect([self.status, self.body.code]).toEqual([403, 30004]);
    const row = await t.db.selectFrom("users").select("balance").where("uid", "=", buyer.uid).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(500);
    const order = await t.db
      .selectFrom("orders")
      .select("status")
      .where("trade_id", "=", buyer.tradeId)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe(1);
  });

  it("lets a Manager (role 3) past the role check on every /super route", async () => {
    for (const key of superRoutes()) {
      const r = await callBlind(key, manager);
      // Past the check, placeholder input gets an answer or a 400/404 on it (or a business refusal,
      // 403/2001, e.g. ticket 1 is already ended), never 401 or 30004.
      expect([key, r.status === 401 || r.body.code === 30004, r.status < 500]).toEqual([key, false, true]);
    }
  });

  it("shows the domain pages by role: /domain to customers, /tun/domain (tunnel group) to Managers only", async () => {
    const paths = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...paths(i.children ?? [])]);
    const mine = await t.api<MenuItem[]>("GET", "/user/rolemenu", { token: customer });
    expect(paths(mine.body.data)).toContain("/domain");
    const adm = await t.api<MenuItem[]>("GET", "/super/roleMenu", { token: manager });
    const tunGroup = adm.body.data.find((i) => i.children?.some((c) => c.path === "/tun"));
    expect(tunGroup?.children?.find((c) => c.path === "/tun/domain")).toMatchObject({ icon: "domain" });
    const sup = await t.api<MenuItem[]>("GET", "/super/roleMenu", { token: support });
    expect(paths(sup.body.data)).not.toContain("/tun/domain");
    // The operator list behind it is a Manager's call.
    expect((await t.api("GET", "/super/domain", { token: support })).status).toBe(403);
    expect((await t.api("GET", "/super/domain", { token: manager })).body.code).toBe("SUCCESS");
  });

  it("puts the invoice pages in the menus: /invoice for every customer, /invoice/list for Managers only", async () => {
    const paths = async (url: string, token: string) =>
      (await t.api<MenuItem[]>("GET", url, { token })).body.data.flatMap((i) => [
        i.path,
        ...(i.children ?? []).map((c) => c.path),
      ]);
    expect(await paths("/user/rolemenu", customer)).toContain("/invoice");
    expect(await paths("/super/roleMenu", manager)).toContain("/invoice/list");
    expect(await paths("/super/roleMenu", support)).not.toContain("/invoice/list");
    const queue = await t.api("GET", "/super/invoiceList", { token: support });
    expect([queue.status, queue.body.code]).toEqual([403, 30004]);
  });

  it("a demoted Manager loses the /super calls at once", async () => {
    const m = await t.register();
    await t.api("PATCH", "/super/user/info", { token: manager, body: { uid: m.uid, role: 3 } });
    const token = await t.login(m.phone, m.password);
    expect((await t.api("GET", "/super/audit", { token })).body.code).toBe("SUCCESS");
    await t.api("PATCH", "/super/user/info", { token: manager, body: { uid: m.uid, role: 2 } });
    expect((await t.api("GET", "/super/audit", { token })).status).toBe(403);
    expect((await t.api("GET", "/super/user/list", { token })).body.code).toBe("SUCCESS");
    await t.api("PATCH", "/super/user/info", { token: manager, body: { uid: m.uid, role: 1 } });
    expect((await t.api("GET", "/super/user/list", { token })).status).toBe(403);
  });
});

describe("customer pages by role", () => {
  it("every role sees SSL certificates (/ssl) in the customer menu, and its calls are customer calls", async () => {
    const paths = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...paths(i.children ?? [])]);
    for (const token of [customer, support, manager]) {
      const menu = await t.api<MenuItem[]>("GET", "/user/rolemenu", { token });
      expect(paths(menu.body.data)).toContain("/ssl");
    }
    const ssl = [...registeredRoutes.keys()].filter((k) => k.split(" ")[1].startsWith("/user/ssl"));
    expect(ssl.length).toBe(8);
    expect(ssl.every((k) => registeredRoutes.get(k) === "user")).toBe(true);
  });
});
