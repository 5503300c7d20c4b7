import type { AddressInfo } from "node:net";
import { type CreateOrderResult, fenToYuan, type OrderView } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { adminOf, balanceOf, makePlan, subsOf } from "../../../test/store-fixtures";
import { closeExpiredOrders } from "../orders/orders.service";
import { epaySign, gatewayKeys } from "./epay";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let tradeSeq = 0;
/** The notify a gateway sends for an order, signed with the merchant key unless told otherwise. */
function notifyParams(
  order: { trade_id: string; amount: number },
  over: Record<string, string> = {},
  key?: string,
): Record<string, string> {
  const keys = gatewayKeys(t.ctx.config);
  const params: Record<string, string> = {
    pid: keys.pid,
    trade_no: `GW${Date.now()}${++tradeSeq}`,
    out_trade_no: order.trade_id,
    type: "alipay",
    name: "test",
    money: fenToYuan(order.amount),
    trade_status: "TRADE_SUCCESS",
    ...over,
  };
  return { ...params, sign: epaySign(params, key ?? keys.key), sign_type: "MD5" };
}

async function notify(params: Record<string, string>, method: "GET" | "POST" = "GET") {
  const res = await t.app.inject(
    method === "GET"
      ? { method, url: `/api/pay/epay/notify?${new URLSearchParams(params)}` }
      : {
          method,
          url: "/api/pay/epay/notify",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams(params).toString(),
        },
  );
  return { status: res.statusCode, text: res.body };
}

async function onlineOrder(token: string, body: Record<string, unknown>) {
  const r = await t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 2, ...body } });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  return r.body.data;
}

describe("epay notify", () => {
  it("records a recharge once (with the promotion bonus) and answers plain 'success'", async () => {
    const admin = await adminOf(t);
    await t.api("POST", "/super/discountRecharge", {
      token: admin,
      body: { name: "满100送10", min_amount: 10000, bonus: 1000, start_at: "2020-01-01", end_at: "2099-12-31" },
    });
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 1, amount: 10000 });
    expect(order.status).toBe(2);
    const params = notifyParams(order);
    const r = await notify(params);
    expect(r).toEqual({ status: 200, text: "success" });
    expect(await balanceOf(t, u.uid)).toBe(11000);
    const replay = await notify(params, "POST");
    expect(replay.text).toBe("success");
    expect(await balanceOf(t, u.uid)).toBe(11000);
    const o = await t.api<OrderView>("GET", `/user/order/${order.trade_id}`, { token: u.token });
    expect(o.body.data).toMatchObject({ status: 1, bonus: 1000, channel_trade_id: params.trade_no });
    const ledger = await t.db
      .selectFrom("balance_ledger")
      .select(["change", "reason"])
      .where("uid", "=", u.uid)
      .orderBy("id")
      .execute();
    expect(ledger.map((l) => [Number(l.change), l.reason])).toEqual([
      [10000, "在线充值"],
      [1000, "充值赠送"],
    ]);
  });

  it("accepts a form-encoded POST notify and delivers a plan", async () => {
    const plan = await makePlan(t, { monthly_fee: 1990 });
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 2, plan_id: plan.id, period: "monthly", pay_type: "wxpay" });
    expect(new URL(order.pay_url ?? "", "http://local").searchParams.get("type")).toBe("wxpay");
    expect((await notify(notifyParams(order), "POST")).text).toBe("success");
    const subs = await subsOf(t, u.uid);
    expect(subs.find((s) => s.plan_id === plan.id)?.status).toBe(1);
    expect(subs.find((s) => s.plan_id !== plan.id)?.status).toBe(-1);
    expect(await balanceOf(t, u.uid)).toBe(0);
  });

  it("refuses a bad signature, a wrong pid, an unknown order or a different amount, changing nothing", async () => {
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 1, amount: 5000 });
    const keys = gatewayKeys(t.ctx.config);
    const tampered = { ...notifyParams(order), money: "500.00" };
    const cases = [
      notifyParams(order, {}, "wrong-key"),
      tampered,
      notifyParams(order, { pid: `${keys.pid}9` }),
      notifyParams(order, { out_trade_no: "99999999999999999999" }),
      notifyParams(order, { money: "49.99" }),
      notifyParams(order, { money: "50.001" }),
    ];
    for (const params of cases) {
      const r = await notify(params);
      expect([params.money, r.status, r.text]).toEqual([params.money, 400, "fail"]);
    }
    expect(await balanceOf(t, u.uid)).toBe(0);
    const o = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", order.trade_id)
      .executeTakeFirstOrThrow();
    expect([o.status, o.channel_trade_id, o.paid_at]).toEqual([2, null, null]);
    // A signed message that is not a payment is acknowledged and ignored.
    expect((await notify(notifyParams(order, { trade_status: "WAIT_BUYER_PAY" }))).text).toBe("success");
    expect(await balanceOf(t, u.uid)).toBe(0);
  });

  it("credits once when twenty identical notifies arrive at the same moment", async () => {
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 1, amount: 2345 });
    const params = notifyParams(order);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => notify(params, i % 2 ? "POST" : "GET")));
    expect(results.every((r) => r.text === "success")).toBe(true);
    expect(await balanceOf(t, u.uid)).toBe(2345);
    const rows = await t.db.selectFrom("balance_ledger").select("id").where("order_id", "=", order.trade_id).execute();
    expect(rows).toHaveLength(1);
  });

  it("credits the balance when the payment arrives after the order closed", async () => {
    const plan = await makePlan(t, { monthly_fee: 800 });
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    await closeExpiredOrders(t.ctx, new Date(Date.now() + 20 * 60_000));
    expect((await notify(notifyParams(order))).text).toBe("success");
    const o = await t.api<OrderView>("GET", `/user/order/${order.trade_id}`, { token: u.token });
    expect(o.body.data.status).toBe(1);
    expect(o.body.data.note).toContain("转入余额");
    expect(await balanceOf(t, u.uid)).toBe(800);
    expect((await subsOf(t, u.uid)).some((s) => s.plan_id === plan.id)).toBe(false);
    const refund = await t.api("POST", "/super/epay/order/refund", {
      token: await adminOf(t),
      body: { trade_id: order.trade_id },
    });
    expect(refund.body.code).toBe(2001);
  });

  it("credits the balance when a lower plan became refused before the payment arrived", async () => {
    const low = await makePlan(t, { level: 2, monthly_fee: 500 });
    const high = await makePlan(t, { level: 3, monthly_fee: 100 });
    const u = await t.register();
    const pending = await onlineOrder(u.token, { type: 2, plan_id: low.id, period: "monthly" });
    const other = await onlineOrder(u.token, { type: 2, plan_id: high.id, period: "monthly" });
    await notify(notifyParams(other));
    expect((await notify(notifyParams(pending))).text).toBe("success");
    expect(await balanceOf(t, u.uid)).toBe(500);
    const row = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", pending.trade_id)
      .executeTakeFirstOrThrow();
    expect(row.fulfilment).toBe("credited");
  });
});

describe("epay return", () => {
  it("sends the browser to /result/pay and records a signed successful return", async () => {
    const u = await t.register();
    const order = await onlineOrder(u.token, { type: 1, amount: 1000 });
    const res = await t.app.inject({
      method: "GET",
      url: `/api/pay/epay/return?${new URLSearchParams(notifyParams(order))}`,
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/result/pay?trade_id=${order.trade_id}`);
    expect(await balanceOf(t, u.uid)).toBe(1000);
    const unsigned = await t.app.inject({ method: "GET", url: `/api/pay/epay/return?out_trade_no=${order.trade_id}` });
    expect(unsigned.headers.location).toBe(`/result/pay?trade_id=${order.trade_id}`);
    const junk = await t.app.inject({ method: "GET", url: "/api/pay/epay/return?out_trade_no=%3Cscript%3E" });
    expect(junk.headers.location).toBe("/result/pay?trade_id=");
  });
});

describe("sandbox gateway over real HTTP", () => {
  it("shows the order, pays it with a real signed notify, and returns to /result/pay", async () => {
    const plan = await makePlan(t, { monthly_fee: 1288, name: "沙箱测试套餐" });
    const u = await t.register();
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    // app.close() in afterAll stops the listener.
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    {
      const create = await fetch(`${base}/api/user/order`, {
        method: "POST",
        headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json" },
        body: JSON.stringify({ type: 2, plan_id: plan.id, period: "monthly", pay_method: 2 }),
      });
      const order = ((await create.json()) as { data: CreateOrderResult }).data;
      // Without PUBLIC_URL the sandbox's links are site-relative (never built from the request).
      expect(order.pay_url?.startsWith("/api/pay/sandbox/submit.php?")).toBe(true);

      const pageRes = await fetch(`${base}${order.pay_url}`);
      const html = await pageRes.text();
      expect(pageRes.status).toBe(200);
      expect(html).toContain("收银台");
      expect(html).toContain("¥12.88");
      expect(html).toContain(order.trade_id);
      expect(html).toContain("沙箱测试套餐");
      const fields = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
          m[1],
          m[2]
            .replace(/&amp;/g, "&")
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">"),
        ]),
      );

      // Tampering with the amount is caught by the gateway's own signature check.
      const forged = await fetch(`${base}/api/pay/sandbox/pay`, {
        method: "POST",
        body: new URLSearchParams({ ...fields, money: "0.01", action: "pay" }),
        redirect: "manual",
      });
      expect(forged.status).toBe(400);

      const pay = await fetch(`${base}/api/pay/sandbox/pay`, {
        method: "POST",
        body: new URLSearchParams({ ...fields, action: "pay" }),
        redirect: "manual",
      });
      expect([pay.status, pay.status === 302 ? "" : await pay.text()]).toEqual([302, ""]);
      const back = pay.headers.get("location") ?? "";
      expect(back.startsWith("/api/pay/epay/return?")).toBe(true);
      const result = await fetch(`${base}${back}`, { redirect: "manual" });
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe(`/result/pay?trade_id=${order.trade_id}`);

      const o = await t.api<OrderView>("GET", `/user/order/${order.trade_id}`, { token: u.token });
      expect(o.body.data.status).toBe(1);
      expect(o.body.data.channel_trade_id).toMatch(/^SB\d+/);
      expect((await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)?.status).toBe(1);

      // Cancelling at the gateway goes back to the console and leaves the order awaiting.
      const second = await fetch(`${base}/api/user/order`, {
        method: "POST",
        headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json" },
        body: JSON.stringify({ type: 1, amount: 500, pay_method: 2 }),
      });
      const order2 = ((await second.json()) as { data: CreateOrderResult }).data;
      const params2 = Object.fromEntries(new URL(order2.pay_url ?? "", base).searchParams);
      const cancel = await fetch(`${base}/api/pay/sandbox/pay`, {
        method: "POST",
        body: new URLSearchParams({ ...params2, action: "cancel" }),
        redirect: "manual",
      });
      expect(cancel.status).toBe(302);
      const o2 = await t.api<OrderView>("GET", `/user/order/${order2.trade_id}`, { token: u.token });
      expect(o2.body.data.status).toBe(2);

      const bad = await fetch(`${base}/api/pay/sandbox/submit.php?pid=1000&money=1.00&out_trade_no=x&sign=00`);
      expect(bad.status).toBe(400);
    }
  });
});
