import type { AdminOrderDetail, CreateOrderResult, RefundResult } from "@burrow/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { GB } from "../src/modules/subscriptions/default-plan";
import { chargeTraffic } from "../src/modules/subscriptions/quota";
import { transact } from "../src/shared/tx";
import { createTestApp, type TestApp } from "./harness";
import { adminOf, balanceOf, giveBalance, makePlan, subsOf } from "./store-fixtures";

/**
 * Issue 17 (review of the value model): free additions — gift-card months and traffic, the daily
 * check-in bonus — must not make a spent plan's payment refundable again. Each case used to pay
 * out money that was never paid in; now it shows no gain.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ CHECKIN_MIN_MB: "1024", CHECKIN_MAX_MB: "1024" });
  admin = await adminOf(t);
});
afterAll(() => t.close());

const buy = (token: string, planId: number) =>
  t.api<CreateOrderResult>("POST", "/user/order", {
    token,
    body: { pay_method: 1, type: 2, plan_id: planId, period: "monthly" },
  });
const detail = (tradeId: string) =>
  t.api<AdminOrderDetail>("GET", "/super/epay/order/detail", { token: admin, query: { trade_id: tradeId } });

/** Plan A monthly for 5,000 with 100 GB, all of it used, then a 12-month gift card for A. */
async function spentThenGifted(planA: number) {
  const u = await t.register();
  await giveBalance(t, u.uid, 5000);
  const o = await buy(u.token, planA);
  expect(o.body.code).toBe("SUCCESS");
  await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 100 * GB));
  expect((await detail(o.body.data.trade_id)).body.data.refund?.refundable).toBe(0);
  const g = await t.api<{ card_numbers: string[] }>("POST", "/super/giftCard", {
    token: admin,
    body: { count: 1, type: 2, plan_id: planA, cycle_number: 12, expire_date: "2099-12-31", one_user_limit: 1 },
  });
  expect(g.body.code).toBe("SUCCESS");
  const r = await t.api("POST", "/user/giftCard/redeem", {
    token: u.token,
    body: { card_number: g.body.data.card_numbers[0] },
  });
  expect(r.body.code).toBe("SUCCESS");
  return { u, tradeId: o.body.data.trade_id };
}

it("gift-card months on a spent plan: the default refund pays nothing (was 4,615)", async () => {
  const a = await makePlan(t, { level: 2, traffic: 100, monthly_fee: 5000, quarterly_fee: null });
  const { u, tradeId } = await spentThenGifted(a.id);
  const d = await detail(tradeId);
  expect(d.body.data.refund?.refundable).toBe(0);
  expect(d.body.data.refund?.reason).toContain("赠送的时长和流量不计");
  await t.api<RefundResult>("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: tradeId } });
  expect(await balanceOf(t, u.uid)).toBe(0);
  // The gift card's months and traffic are recorded as free on the subscription.
  const sub = (await subsOf(t, u.uid)).find((s) => s.trade_id === tradeId);
  expect(Number(sub?.free_quota)).toBe(1200 * GB);
  expect(Number(sub?.free_ms)).toBeGreaterThan(360 * 86_400_000);
});

it("gift-card months on a spent plan, then an upgrade to a cheaper plan: no credit to the balance (was 3,615)", async () => {
  const a = await makePlan(t, { level: 2, traffic: 100, monthly_fee: 5000, quarterly_fee: null });
  const b = await makePlan(t, { level: 3, traffic: 100, monthly_fee: 1000, quarterly_fee: null });
  const { u } = await spentThenGifted(a.id);
  await giveBalance(t, u.uid, 1000);
  const up = await buy(u.token, b.id);
  expect(up.body.code).toBe("SUCCESS");
  // B is paid in full from the balance: the spent plan A carried no credit.
  expect(await balanceOf(t, u.uid)).toBe(0);
  const live = (await subsOf(t, u.uid)).filter((s) => s.status === 1 || s.status === 2);
  expect(live.map((s) => s.plan_id)).toEqual([b.id]);
});

it("a daily check-in on a spent 1 GB plan adds no refundable value (was 2,500)", async () => {
  const a = await makePlan(t, { level: 2, traffic: 1, monthly_fee: 5000, quarterly_fee: null });
  const u = await t.register();
  await giveBalance(t, u.uid, 5000);
  const o = await buy(u.token, a.id);
  expect(o.body.code).toBe("SUCCESS");
  await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 1 * GB));
  expect((await detail(o.body.data.trade_id)).body.data.refund?.refundable).toBe(0);
  const c = await t.api("GET", "/user/checkIn", { token: u.token });
  expect(c.body.code).toBe("SUCCESS");
  const sub = (await subsOf(t, u.uid)).find((s) => s.trade_id === o.body.data.trade_id);
  expect(Number(sub?.traffic_quota)).toBe(2 * GB);
  expect(Number(sub?.free_quota)).toBe(1 * GB);
  expect((await detail(o.body.data.trade_id)).body.data.refund?.refundable).toBe(0);
  await t.api<RefundResult>("POST", "/super/epay/order/refund", {
    token: admin,
    body: { trade_id: o.body.data.trade_id },
  });
  expect(await balanceOf(t, u.uid)).toBe(0);
});

it("a check-in on a half-used plan: usage counts against the paid traffic first", async () => {
  const a = await makePlan(t, { level: 2, traffic: 2, monthly_fee: 6000, quarterly_fee: null });
  const u = await t.register();
  await giveBalance(t, u.uid, 6000);
  const o = await buy(u.token, a.id);
  await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 1 * GB));
  const before = (await detail(o.body.data.trade_id)).body.data.refund?.refundable;
  expect(before).toBe(3000);
  expect((await t.api("GET", "/user/checkIn", { token: u.token })).body.code).toBe("SUCCESS");
  // 1 of 2 paid GB left either way: the free GB adds nothing (the old model said 2 of 3 left, 4,000).
  expect((await detail(o.body.data.trade_id)).body.data.refund?.refundable).toBe(3000);
});
