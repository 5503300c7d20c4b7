import type {
  AdminOrderDetail,
  BalanceLedgerRow,
  CheckInResult,
  CreateOrderResult,
  OrderQuote,
  OrderView,
  Paged,
  RefundResult,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { adminOf, balanceOf, giveBalance, makePlan, subsOf } from "../../../test/store-fixtures";
import { transact } from "../../shared/tx";
import { GB } from "../subscriptions/default-plan";
import { chargeTraffic } from "../subscriptions/quota";
import { recordOnlinePayment } from "./orders.service";

/**
 * Issue 17, each case with its numbers: the customer never ends up with more value (money back
 * plus what they still hold) than they paid. Plan A: level 2, 25,500 fen a year with 1,200 GB
 * (100 GB a month); plan B: level 3, 5,000 fen a month.
 */

let t: TestApp;
let admin: string;
beforeAll(async () => {
  // A check-in always gives exactly 1 MB, so over-quota arithmetic is exact.
  t = await createTestApp({ CHECKIN_MIN_MB: "1", CHECKIN_MAX_MB: "1" });
  admin = await adminOf(t);
});
afterAll(() => t.close());

const planA = () => makePlan(t, { level: 2, traffic: 100, monthly_fee: null, quarterly_fee: null, annual_fee: 25_500 });
const planB = () => makePlan(t, { level: 3, traffic: 200, monthly_fee: 5000, quarterly_fee: null });

const buy = async (token: string, body: Record<string, unknown>) => {
  const r = await t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 1, ...body } });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  return r.body.data;
};
const preview = async (token: string, body: Record<string, unknown>) =>
  (await t.api<OrderQuote>("POST", "/user/order/preview", { token, body })).body.data;
const detail = async (tradeId: string) =>
  (await t.api<AdminOrderDetail>("GET", "/super/epay/order/detail", { token: admin, query: { trade_id: tradeId } }))
    .body.data;
const refund = (tradeId: string, extra: Record<string, unknown> = {}) =>
  t.api<RefundResult>("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: tradeId, ...extra } });
/** The gateway's verified payment of an online order (the notify route's signature checks are tested in payments). */
const pay = (o: { trade_id: string; amount: number }) =>
  recordOnlinePayment(t.ctx, { tradeId: o.trade_id, channelTradeId: `GW${o.trade_id}`, amount: o.amount });

/** Whole days in B's month from now, as the value model counts them (today counts as used). */
const monthOfB = (sub: { start_at: string; end_at: string | null }) =>
  Math.round((Date.parse(sub.end_at ?? "") - Date.parse(sub.start_at)) / 86_400_000);

/** Customer with A bought from a balance of `start`, then upgraded to B: the state of case 1. */
async function boughtAThenB(start: number) {
  const [a, b] = [await planA(), await planB()];
  const u = await t.register();
  await giveBalance(t, u.uid, start);
  const orderA = await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
  expect(await balanceOf(t, u.uid)).toBe(start - 25_500);
  const q = await preview(u.token, { type: 2, plan_id: b.id, period: "monthly" });
  expect(q).toMatchObject({ action: "upgrade", upgrade_credit: 25_430, credit_to_balance: 20_430, amount: 0 });
  const orderB = await buy(u.token, { type: 2, plan_id: b.id, period: "monthly" });
  expect(await balanceOf(t, u.uid)).toBe(start - 25_500 + 20_430);
  const subB = (await subsOf(t, u.uid)).find((s) => s.plan_id === b.id)!;
  const days = monthOfB(subB);
  return { u, orderA, orderB, subB, refundB: Math.floor((5000 * (days - 1)) / days) };
}

describe("case 1: a refund after an upgrade never pays the old plan's value twice", () => {
  it("refund B then A: 94,930 + B's unused value, not 125,430", async () => {
    const { u, orderA, orderB, refundB } = await boughtAThenB(100_000);
    const dB = await detail(orderB.trade_id);
    expect(dB.refund).toMatchObject({ refundable: refundB, max_override: 5000 });
    const rB = await refund(orderB.trade_id);
    expect(rB.body.data).toMatchObject({ refunded: refundB, override: false, balance: 94_930 + refundB });

    const dA = await detail(orderA.trade_id);
    expect(dA.refundable).toBe(true); // only by an override, and only what was not given out as credit
    expect(dA.refund).toMatchObject({ refundable: 0, max_override: 70 });
    expect(dA.refund?.reason).toContain("已转出 25430 分");
    const rA = await refund(orderA.trade_id);
    expect([rA.status, rA.body.code]).toEqual([403, 2001]);
    expect(rA.body.msg).toContain("已转出 25430 分");
    const tooMuch = await refund(orderA.trade_id, { amount: 25_500, override_reason: "客户投诉" });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 10000]);
    expect(tooMuch.body.msg).toContain("amount");
    expect(await balanceOf(t, u.uid)).toBe(94_930 + refundB);
    expect(94_930 + refundB).toBeLessThanOrEqual(100_000);
  });

  it("refund A then B: A is refused (its value became B's credit and 20,430 of balance), B pays its unused value", async () => {
    const { u, orderA, orderB, refundB } = await boughtAThenB(100_000);
    const rA = await refund(orderA.trade_id);
    expect(rA.body.code).toBe(2001);
    expect(await balanceOf(t, u.uid)).toBe(94_930);
    const rB = await refund(orderB.trade_id);
    expect(rB.body.data.refunded).toBe(refundB);
    expect(await balanceOf(t, u.uid)).toBeLessThanOrEqual(100_000);
  });

  it("refund A alone after the upgrade: balance stays 20,430, not 45,930 (at most 20,500 is due)", async () => {
    const { u, orderA } = await boughtAThenB(25_500);
    expect((await refund(orderA.trade_id)).body.code).toBe(2001);
    expect(await balanceOf(t, u.uid)).toBe(20_430);
    // An override without a reason is refused; with one it pays at most what was not given out: 70.
    const noReason = await refund(orderA.trade_id, { amount: 70 });
    expect([noReason.status, noReason.body.code]).toEqual([400, 10000]);
    expect(noReason.body.msg).toContain("override_reason");
    const over = await refund(orderA.trade_id, { amount: 70, override_reason: "客服补偿" });
    expect(over.body.data).toMatchObject({ refunded: 70, override: true, balance: 20_500 });
    const audit = await t.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("target", "=", `order:${orderA.trade_id}`)
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe("order.refund.override");
    expect(audit.detail).toContain("客服补偿");
    // The customer still holds B (5,000 of value): 20,500 + 5,000 = 25,500 paid, no gain.
    expect((await subsOf(t, u.uid)).filter((s) => s.status === 1 && s.end_at !== null)).toHaveLength(1);
  });
});

describe("case 2: upgrade credit and refunds follow the traffic already used", () => {
  it("1,200 GB used, upgrade next: credit 0, B costs its full 5,000 (not 25,430 back)", async () => {
    const [a, b] = [await planA(), await planB()];
    const u = await t.register();
    await giveBalance(t, u.uid, 100_000);
    await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 1200 * GB));
    const q = await preview(u.token, { type: 2, plan_id: b.id, period: "monthly" });
    expect(q).toMatchObject({ action: "upgrade", upgrade_credit: 0, credit_to_balance: 0, amount: 5000 });
    await buy(u.token, { type: 2, plan_id: b.id, period: "monthly" });
    expect(await balanceOf(t, u.uid)).toBe(100_000 - 25_500 - 5000);
  });

  it("half the traffic used: credit is half of 25,500 (12,750), not 25,430", async () => {
    const [a, b] = [await planA(), await planB()];
    const u = await t.register();
    await giveBalance(t, u.uid, 25_500);
    await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 600 * GB));
    const q = await preview(u.token, { type: 2, plan_id: b.id, period: "monthly" });
    expect(q).toMatchObject({ upgrade_credit: 12_750, credit_to_balance: 7750, amount: 0 });
  });

  it("a refund after all 1,200 GB were used pays nothing by default", async () => {
    const a = await planA();
    const u = await t.register();
    await giveBalance(t, u.uid, 25_500);
    const o = await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 1200 * GB));
    expect((await detail(o.trade_id)).refund).toMatchObject({ refundable: 0, max_override: 25_500 });
    expect((await refund(o.trade_id)).body.code).toBe(2001);
    expect(await balanceOf(t, u.uid)).toBe(0);
  });
});

describe("case 3: an online upgrade is settled with the credit at payment time", () => {
  it("an extension refunded before payment: the 60,000 plan is not delivered for ~34,500; the payment goes to the balance", async () => {
    const a = await planA();
    const big = await makePlan(t, { level: 3, monthly_fee: null, quarterly_fee: null, annual_fee: 60_000 });
    const u = await t.register();
    await giveBalance(t, u.uid, 100_000);
    await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    const ext = await buy(u.token, { type: 2, plan_id: a.id, period: "annual" }); // extends A: 51,000 paid
    expect(await balanceOf(t, u.uid)).toBe(49_000);
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: big.id, period: "annual", pay_method: 2 },
    });
    const online = r.body.data;
    const priced = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", online.trade_id)
      .executeTakeFirstOrThrow();
    const creditThen = Number(priced.upgrade_credit);
    expect(creditThen).toBeGreaterThan(50_800); // 51,000 × (days − 1) / days over two years
    expect(online.amount).toBe(60_000 - creditThen);

    const rExt = await refund(ext.trade_id);
    expect(rExt.body.data.refunded).toBe(25_500);
    expect(await pay(online)).toBe("paid");

    const subs = await subsOf(t, u.uid);
    expect(subs.some((s) => s.plan_id === big.id)).toBe(false);
    const subA = subs.find((s) => s.plan_id === a.id)!;
    expect([subA.status, Number(subA.given_back)]).toEqual([1, 0]);
    const paidOrder = await t.api<OrderView>("GET", `/user/order/${online.trade_id}`, { token: u.token });
    expect(paidOrder.body.data.status).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(49_000 + 25_500 + online.amount);
    const ledger = await t.api<Paged<BalanceLedgerRow>>("GET", "/user/ledger", { token: u.token, query: { size: 1 } });
    expect(ledger.body.data.list[0]).toMatchObject({ change: online.amount, order_id: online.trade_id });
    expect(ledger.body.data.list[0].reason).toContain("不足以抵扣");
  });

  it("a credit that grew before payment (A extended meanwhile) sends exactly the difference to the balance", async () => {
    const a = await planA();
    const big = await makePlan(t, { level: 3, monthly_fee: null, quarterly_fee: null, annual_fee: 60_000 });
    const u = await t.register();
    await giveBalance(t, u.uid, 100_000);
    await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: big.id, period: "annual", pay_method: 2 },
    });
    expect(r.body.data.amount).toBe(60_000 - 25_430);
    await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    const creditNow = Number((await preview(u.token, { type: 2, plan_id: big.id, period: "annual" })).upgrade_credit);
    expect(await pay(r.body.data)).toBe("paid");
    expect(await balanceOf(t, u.uid)).toBe(100_000 - 51_000 + (creditNow - 25_430));
    const subA = (await subsOf(t, u.uid)).find((s) => s.plan_id === a.id)!;
    expect([subA.status, Number(subA.given_back)]).toEqual([-1, creditNow]);
    const o = await t.api<OrderView>("GET", `/user/order/${r.body.data.trade_id}`, { token: u.token });
    expect(o.body.data.note).toContain(`支付时原套餐剩余价值为 ${creditNow} 分（下单时 25430 分）`);
    const ledger = await t.api<Paged<BalanceLedgerRow>>("GET", "/user/ledger", { token: u.token, query: { size: 1 } });
    expect(ledger.body.data.list[0]).toMatchObject({ change: creditNow - 25_430, order_id: r.body.data.trade_id });
  });
});

describe("case 4: a recharge bonus only within the payment window or while the promotion runs", () => {
  async function promo() {
    const now = Date.now();
    const r = await t.api<{ id: number }>("POST", "/super/discountRecharge", {
      token: admin,
      body: {
        name: "限时",
        min_amount: 1000,
        bonus: 500,
        start_at: new Date(now - 3600_000).toISOString(),
        end_at: new Date(now + 3600_000).toISOString(),
      },
    });
    return r.body.data.id;
  }
  const recharge = async (token: string) => {
    const r = await t.api<CreateOrderResult>("POST", "/user/order", {
      token,
      body: { type: 1, amount: 1000, pay_method: 2 },
    });
    return r.body.data;
  };

  it("a cancelled recharge paid later gets 1,000 and no 500 bonus, and the ledger says why", async () => {
    const id = await promo();
    const u = await t.register();
    const o = await recharge(u.token);
    const row = await t.db.selectFrom("orders").select("bonus").where("trade_id", "=", o.trade_id).executeTakeFirst();
    expect(Number(row?.bonus)).toBe(500);
    await t.api("POST", `/user/order/${o.trade_id}/cancel`, { token: u.token });
    // Even while the promotion still runs: a closed order cannot be stockpiled for its bonus.
    expect(await pay(o)).toBe("paid");
    expect(await balanceOf(t, u.uid)).toBe(1000);
    const ledger = await t.api<Paged<BalanceLedgerRow>>("GET", "/user/ledger", { token: u.token });
    expect(ledger.body.data.list.map((l) => l.change)).toEqual([1000]);
    expect(ledger.body.data.list[0].reason).toContain("不含充值赠送");
    await t.api("DELETE", "/super/discountRecharge", { token: admin, query: { id } });
  });

  it("paid after its window once the promotion ended: no bonus; paid within the window: the bonus", async () => {
    const id = await promo();
    const u = await t.register();
    const late = await recharge(u.token);
    const inTime = await recharge(u.token);
    await t.api("DELETE", "/super/discountRecharge", { token: admin, query: { id } });
    await t.db
      .updateTable("orders")
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("trade_id", "=", late.trade_id)
      .execute();
    expect(await pay(late)).toBe("paid");
    expect(await balanceOf(t, u.uid)).toBe(1000);
    expect(await pay(inTime)).toBe("paid");
    expect(await balanceOf(t, u.uid)).toBe(2500);
  });
});

describe("case 5: no price rounds to 0 fen, the awaiting cap is 10, the check-in respects usage", () => {
  it("refuses a 1 fen fee × 0.33 (plan create and update), a code under 0.00005, and a code that makes 1 fen free", async () => {
    const levels = await t.db.selectFrom("plan_levels").select(["id", "level"]).execute();
    const base = {
      name: "一分钱",
      traffic: 1,
      type: 2,
      level_id: levels.find((l) => l.level === 2)?.id,
      bandwidth: 1,
      tunnel_limit: 1,
      tunnel_peer_port_limit: 1,
    };
    const bad = await t.api("POST", "/super/plan", {
      token: admin,
      body: { ...base, monthly_fee: 1, monthly_fee_discount: 0.33 },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
    expect(bad.body.msg).toContain("monthly_fee_discount");
    const free = await t.api("POST", "/super/plan", { token: admin, body: { ...base, name: "免费", monthly_fee: 0 } });
    expect(free.body.code).toBe("SUCCESS");
    const oneFen = await makePlan(t, { monthly_fee: 1, quarterly_fee: null });
    const upd = await t.api("PATCH", "/super/plan", {
      token: admin,
      body: { id: oneFen.id, monthly_fee_discount: 0.33 },
    });
    expect([upd.status, upd.body.code]).toEqual([400, 10000]);
    expect(upd.body.msg).toContain("monthly_fee_discount");

    const tiny = await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "TINY", discount: 0.00004, expire_date: "2099-12-31", use_limit: 5 },
    });
    expect([tiny.status, tiny.body.code]).toEqual([400, 10000]);
    expect(tiny.body.msg).toContain("discount");
    const forOneFen = await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "THIRDONE", discount: 0.33, expire_date: "2099-12-31", use_limit: 5, plan_ids: [oneFen.id] },
    });
    expect([forOneFen.status, forOneFen.body.code]).toEqual([400, 10000]);
    expect(forOneFen.body.msg).toContain("discount");
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "THIRD", discount: 0.33, expire_date: "2099-12-31", use_limit: 5 },
    });
    const u = await t.register();
    await giveBalance(t, u.uid, 100);
    const r = await t.api("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: oneFen.id, period: "monthly", pay_method: 1, code: "THIRD" },
    });
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toContain("code");
    // A plan saved before the rule (1 fen × 0.33 in the table) is not sold for 0 fen either.
    await t.db.updateTable("plans").set({ monthly_fee_discount: 0.33 }).where("id", "=", oneFen.id).execute();
    const old = await t.api("POST", "/user/order", {
      token: u.token,
      body: { type: 2, plan_id: oneFen.id, period: "monthly", pay_method: 1 },
    });
    expect([old.status, old.body.code]).toEqual([400, 10000]);
    expect(old.body.msg).toContain("period");
    expect((await subsOf(t, u.uid)).some((s) => s.plan_id === oneFen.id)).toBe(false);
    expect(await balanceOf(t, u.uid)).toBe(100);
  });

  it("lets exactly 10 awaiting orders through 15 concurrent ones", async () => {
    const u = await t.register();
    const rs = await Promise.all(
      Array.from({ length: 15 }, () =>
        t.api("POST", "/user/order", { token: u.token, body: { type: 1, amount: 1000, pay_method: 2 } }),
      ),
    );
    expect(rs.filter((r) => r.body.code === "SUCCESS")).toHaveLength(10);
    expect(rs.filter((r) => r.body.code === 2001)).toHaveLength(5);
    const n = await t.db.selectFrom("orders").select("id").where("uid", "=", u.uid).where("status", "=", 2).execute();
    expect(n).toHaveLength(10);
  });

  it("a check-in while still over quota leaves the plan over quota (2), not in use", async () => {
    const plan = await makePlan(t, { traffic: 1, monthly_fee: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 100);
    await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 2 * GB));
    const c = await t.api<CheckInResult>("GET", "/user/checkIn", { token: u.token });
    expect(c.body.data.bonus_bytes).toBe(1024 * 1024);
    const sub = (await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)!;
    expect([sub.status, Number(sub.traffic_quota)]).toEqual([2, GB + 1024 * 1024]);
  });
});

describe("docs/payments.md worked example", () => {
  it("buy A, use half the traffic, upgrade to B, refund both: 12,583 back of 25,500 (B's month of 30 days)", async () => {
    const [a, b] = [await planA(), await planB()];
    const u = await t.register();
    await giveBalance(t, u.uid, 30_000);
    const orderA = await buy(u.token, { type: 2, plan_id: a.id, period: "annual" });
    expect(await balanceOf(t, u.uid)).toBe(4500);
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 600 * GB));
    const orderB = await buy(u.token, { type: 2, plan_id: b.id, period: "monthly" });
    expect(await balanceOf(t, u.uid)).toBe(12_250);
    const subA = (await subsOf(t, u.uid)).find((s) => s.plan_id === a.id)!;
    expect(Number(subA.given_back)).toBe(12_750);
    expect((await detail(orderA.trade_id)).refund).toMatchObject({ refundable: 0, max_override: 12_750 });
    expect((await refund(orderA.trade_id)).body.code).toBe(2001);
    const days = monthOfB((await subsOf(t, u.uid)).find((s) => s.plan_id === b.id)!);
    const rB = await refund(orderB.trade_id);
    expect(rB.body.data.refunded).toBe(Math.floor((5000 * (days - 1)) / days)); // 4,833 when days = 30
    expect(30_000 - (await balanceOf(t, u.uid))).toBe(25_500 - 7750 - rB.body.data.refunded);
  });
});
