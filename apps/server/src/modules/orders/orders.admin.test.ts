import type {
  AdminOrderDetail,
  AdminOrderRow,
  CreateOrderResult,
  OrderView,
  Paged,
  PlanRegRow,
  RefundResult,
} from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { dropPhone, type TestApp } from "../../../test/harness";
import { buy as buyAs } from "../../../test/order-fixtures";
import { balanceOf, giveBalance, makePlan, storeSuite, subsOf } from "../../../test/store-fixtures";
import { closeExpiredOrders } from "./orders.service";

/* Promo codes, order history and privacy, closing unpaid orders, and the operators' orders, refunds, registrations. */

const suite = storeSuite();
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});
const buy = (token: string, body: Record<string, unknown>) => buyAs(t, token, body);

describe("promo codes at checkout", () => {
  it("applies the discount, counts a use, and is refused once used by the same customer", async () => {
    const plan = await makePlan(t, { monthly_fee: 2000 });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "SPRING20", discount: 0.8, expire_date: "2099-12-31", use_limit: 5 },
    });
    const u = await t.register();
    await giveBalance(t, u.uid, 5000);
    const r = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly", code: "spring20" });
    expect(r.body.data.amount).toBe(1600);
    const row = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", r.body.data.trade_id)
      .executeTakeFirstOrThrow();
    expect([row.discount_code, Number(row.code_discount)]).toEqual(["SPRING20", 400]);
    const code = await t.db
      .selectFrom("discount_codes")
      .selectAll()
      .where("code", "=", "SPRING20")
      .executeTakeFirstOrThrow();
    expect(code.used_count).toBe(1);
    const again = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly", code: "SPRING20" });
    expect(again.body.code).toBe(10000);
    expect(again.body.msg).toContain("code");
  });
});

describe("order history and privacy", () => {
  it("lists my orders with filters, and answers 404 for another customer's order", async () => {
    const plan = await makePlan(t, { monthly_fee: 100 });
    const a = await t.register();
    const b = await t.register();
    await giveBalance(t, a.uid, 1000);
    const r = await buy(a.token, { type: 2, plan_id: plan.id, period: "monthly" });
    await t.api("POST", "/user/order", { token: a.token, body: { type: 1, amount: 1000, pay_method: 2 } });
    const list = await t.api<Paged<OrderView>>("GET", "/user/order", { token: a.token });
    expect(list.body.data.total).toBe(2);
    const paid = await t.api<Paged<OrderView>>("GET", "/user/order", { token: a.token, query: { status: 1 } });
    expect(paid.body.data.list.map((o) => o.trade_id)).toEqual([r.body.data.trade_id]);
    expect(paid.body.data.list[0]).toMatchObject({ plan_name: plan.name, type: 2, pay_method: 1, pay_url: null });
    const mine = await t.api("GET", `/user/order/${r.body.data.trade_id}`, { token: a.token });
    expect(mine.status).toBe(200);
    const theirs = await t.api("GET", `/user/order/${r.body.data.trade_id}`, { token: b.token });
    expect(theirs.status).toBe(404);
    expect((await t.api<Paged<OrderView>>("GET", "/user/order", { token: b.token })).body.data.total).toBe(0);
    const cancel = await t.api("POST", `/user/order/${r.body.data.trade_id}/cancel`, { token: b.token });
    expect(cancel.status).toBe(404);
  });
});

describe("closing unpaid orders", () => {
  it("closes awaiting orders after 15 minutes, gives the code use back, and is idempotent", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "CLOSEME", discount: 0.5, expire_date: "2099-12-31", use_limit: 1 },
    });
    const u = await t.register();
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 2, code: "CLOSEME" },
    });
    expect(r.body.data).toMatchObject({ status: 2, amount: 500 });
    expect(r.body.data.pay_url).toContain("/submit.php?");
    const used = () =>
      t.db.selectFrom("discount_codes").select("used_count").where("code", "=", "CLOSEME").executeTakeFirstOrThrow();
    expect((await used()).used_count).toBe(1);
    expect(await closeExpiredOrders(t.ctx, new Date(Date.now() + 14 * 60_000))).toBe(0);
    const later = new Date(Date.now() + 16 * 60_000);
    expect(await closeExpiredOrders(t.ctx, later)).toBeGreaterThanOrEqual(1);
    expect(await closeExpiredOrders(t.ctx, later)).toBe(0);
    const o = await t.api<OrderView>("GET", `/user/order/${r.body.data.trade_id}`, { token: u.token });
    expect(o.body.data).toMatchObject({ status: -1, pay_url: null });
    expect(o.body.data.closed_at).toBeTruthy();
    expect((await used()).used_count).toBe(0);
  });

  it("caps awaiting online orders per customer", async () => {
    const u = await t.register();
    const results = [];
    for (let i = 0; i < 11; i++) {
      results.push(
        (await t.api("POST", "/user/order", { token: u.token, body: { type: 1, amount: 1000, pay_method: 2 } })).body
          .code,
      );
    }
    expect(results.slice(0, 10).every((c) => c === "SUCCESS")).toBe(true);
    expect(results[10]).toBe(2001);
  });

  it("lets the customer cancel an awaiting order, once", async () => {
    const u = await t.register();
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: { type: 1, amount: 2000, pay_method: 2 },
    });
    const c = await t.api<OrderView>("POST", `/user/order/${r.body.data.trade_id}/cancel`, { token: u.token });
    expect(c.body.data.status).toBe(-1);
    const again = await t.api("POST", `/user/order/${r.body.data.trade_id}/cancel`, { token: u.token });
    expect(again.body.code).toBe(2001);
  });
});

describe("admin: orders, refunds, registrations", () => {
  it("filters orders by user_id, order_id, local_trade_id, channel_trade_id and shows the detail", async () => {
    const plan = await makePlan(t, { monthly_fee: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1000);
    const r = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const tradeId = r.body.data.trade_id;
    const byUser = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
      token: admin,
      query: { user_id: u.uid },
    });
    expect(byUser.body.data.list).toHaveLength(1);
    expect(byUser.body.data.list[0]).toMatchObject({ trade_id: tradeId, uid: u.uid, phone: u.phone });
    const id = byUser.body.data.list[0].id;
    const byId = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
      token: admin,
      query: { order_id: id },
    });
    expect(byId.body.data.list.map((o) => o.trade_id)).toEqual([tradeId]);
    const byTrade = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
      token: admin,
      query: { local_trade_id: tradeId },
    });
    expect(byTrade.body.data.total).toBe(1);
    await t.db.updateTable("orders").set({ channel_trade_id: "CH-XYZ" }).where("trade_id", "=", tradeId).execute();
    const byChannel = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
      token: admin,
      query: { channel_trade_id: "CH-XYZ" },
    });
    expect(byChannel.body.data.list.map((o) => o.trade_id)).toEqual([tradeId]);
    const d = await t.api<AdminOrderDetail>("GET", "/super/epay/order/detail", {
      token: admin,
      query: { trade_id: tradeId },
    });
    expect(d.body.data).toMatchObject({ refundable: true, user: { uid: u.uid, balance: 900 } });
    expect(d.body.data.ledger.map((l) => l.change)).toEqual([-100]);
    const reg = await t.api<Paged<PlanRegRow>>("GET", "/super/plan/reg", {
      token: admin,
      query: { local_trade_id: tradeId },
    });
    expect(reg.body.data.list).toHaveLength(1);
    expect(reg.body.data.list[0]).toMatchObject({ uid: u.uid, phone: u.phone, plan_id: plan.id, status: 1 });
    const regByUser = await t.api<Paged<PlanRegRow>>("GET", "/super/plan/reg", {
      token: admin,
      query: { user_id: u.uid },
    });
    expect(regByUser.body.data.total).toBe(2);
    // Each filter narrows the rows and their count alike.
    const inUse = await t.api<Paged<PlanRegRow>>("GET", "/super/plan/reg", {
      token: admin,
      query: { user_id: u.uid, status: 1, kind: 2 },
    });
    expect([inUse.body.data.total, inUse.body.data.list.length]).toEqual([1, 1]);
  });

  it("pages the order list exactly: each page is its slice of the whole list, newest first, with plan and phone", async () => {
    const plan = await makePlan(t, { monthly_fee: 10 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1000);
    for (let i = 0; i < 5; i++)
      expect((await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" })).status).toBe(200);
    const whole = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
      token: admin,
      query: { user_id: u.uid, size: 100 },
    });
    const ids = whole.body.data.list.map((o) => o.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(whole.body.data.list.filter((o) => o.plan_name === plan.name && o.phone === u.phone)).toHaveLength(5);
    for (const size of [1, 2, 4]) {
      for (let page = 1; page <= Math.ceil(ids.length / size) + 1; page++) {
        const r = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
          token: admin,
          query: { user_id: u.uid, page, size },
        });
        expect(r.body.data.total).toBe(ids.length);
        expect(r.body.data.list).toEqual(whole.body.data.list.slice((page - 1) * size, page * size));
      }
    }
  });

  it('shows no phone ("") for an account without one in the order list, detail and registrations', async () => {
    const plan = await makePlan(t, { monthly_fee: 100 });
    const [u, other] = [await t.register(), await t.register()];
    const trades: string[] = [];
    for (const c of [u, other]) {
      await giveBalance(t, c.uid, 1000);
      trades.push((await buy(c.token, { type: 2, plan_id: plan.id, period: "monthly" })).body.data.trade_id);
    }
    await dropPhone(t, u.uid);
    for (const [c, phone] of [
      [u, ""],
      [other, other.phone],
    ] as const) {
      const list = await t.api<Paged<AdminOrderRow>>("GET", "/super/epay/order", {
        token: admin,
        query: { user_id: c.uid },
      });
      expect(list.body.data.list.map((o) => o.phone)).toEqual([phone]);
      const tradeId = list.body.data.list[0].trade_id;
      const d = await t.api<AdminOrderDetail>("GET", "/super/epay/order/detail", {
        token: admin,
        query: { trade_id: tradeId },
      });
      expect([d.body.data.phone, d.body.data.user.phone]).toEqual([phone, phone]);
      const reg = await t.api<Paged<PlanRegRow>>("GET", "/super/plan/reg", {
        token: admin,
        query: { local_trade_id: tradeId },
      });
      expect(reg.body.data.list.map((r) => r.phone)).toEqual([phone]);
    }
  });

  it("refunds a purchase to the balance: order −2, subscription −2, the free plan back, audited", async () => {
    const plan = await makePlan(t, { monthly_fee: 1500 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    const r = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    // The value model: today counts as used, so a month of 28–31 days refunds (days − 1) / days of 15.00.
    const d = await t.api<AdminOrderDetail>("GET", "/super/epay/order/detail", {
      token: admin,
      query: { trade_id: r.body.data.trade_id },
    });
    const due = d.body.data.refund?.refundable ?? 0;
    expect(due).toBeGreaterThanOrEqual(Math.floor((1500 * 27) / 28));
    expect(due).toBeLessThan(1500);
    expect(d.body.data.refund?.reason).toContain("已付 1500 分");
    const res = await t.api<RefundResult>("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: r.body.data.trade_id },
    });
    expect(res.body.data).toEqual({
      trade_id: r.body.data.trade_id,
      refunded: due,
      override: false,
      balance: 500 + due,
    });
    const subs = await subsOf(t, u.uid);
    expect(subs.find((s) => s.plan_id === plan.id)?.status).toBe(-2);
    expect(subs.filter((s) => s.status === 1 && s.end_at === null)).toHaveLength(1);
    const o = await t.api<OrderView>("GET", `/user/order/${r.body.data.trade_id}`, { token: u.token });
    expect(o.body.data.status).toBe(-2);
    const twice = await t.api("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: r.body.data.trade_id },
    });
    expect(twice.body.code).toBe(2001);
    const audit = await t.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("target", "=", `order:${r.body.data.trade_id}`)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(["order.refund"]);
  });

  it("refunding a renewal takes back exactly its months, traffic and value", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000, traffic: 10 });
    const u = await t.register();
    await giveBalance(t, u.uid, 2000);
    const first = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const before = (await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)!;
    const renew = await buy(u.token, { type: 4, trade_id: first.body.data.trade_id, period: "monthly" });
    await t.api("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: renew.body.data.trade_id } });
    const after = (await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)!;
    expect([after.status, after.end_at, Number(after.traffic_quota), Number(after.paid_amount)]).toEqual([
      1,
      before.end_at,
      Number(before.traffic_quota),
      1000,
    ]);
    expect(await balanceOf(t, u.uid)).toBe(1000);
  });

  it("refuses to refund a recharge or an order not paid", async () => {
    const u = await t.register();
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: { type: 1, amount: 1000, pay_method: 2 },
    });
    const res = await t.api("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: r.body.data.trade_id },
    });
    expect(res.body.code).toBe(2001);
    const missing = await t.api("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: "00000000000000000001" },
    });
    expect(missing.status).toBe(404);
    const bad = await t.api("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: "a b" } });
    expect(bad.body.code).toBe(10000);
  });
});
