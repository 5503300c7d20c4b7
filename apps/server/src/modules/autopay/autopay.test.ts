import type { AutopayState, OrderView, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { onlyOn, type TestApp } from "../../../test/harness";
import { buy } from "../../../test/order-fixtures";
import { balanceOf, giveBalance, makePlan, storeSuite, subsOf } from "../../../test/store-fixtures";
import { DAY_MS } from "../../shared/time";
import { transact } from "../../shared/tx";
import { GB } from "../subscriptions/default-plan";
import { chargeTraffic } from "../subscriptions/quota";
import { runAutoRenewals } from "./renew";
import { evaluateTopup, evaluateTopups } from "./topup";

/* Automatic purchases: auto-renewal by its job (a controllable clock), top-ups where usage is charged. */

const suite = storeSuite();
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

/** A customer on a fresh monthly plan of 10.00 (100 GB) with `fen` left on the balance. */
async function customerOnPlan(fen: number) {
  const plan = await makePlan(t, { monthly_fee: 1000, traffic: 100 });
  const u = await t.register();
  await giveBalance(t, u.uid, 1000 + fen);
  expect((await buy(t, u.token, { type: 2, plan_id: plan.id, period: "monthly" })).body.code).toBe("SUCCESS");
  const sub = (await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)!;
  return { u, sub, end: Date.parse(sub.end_at!) };
}

const myOrders = async (token: string) =>
  (await t.api<Paged<OrderView>>("GET", "/user/order", { token, query: { page: 1, size: 50 } })).body.data.list;

const events = (type: string, uid: number) =>
  t.db.selectFrom("outbox_events").selectAll().where("type", "=", type).where("uid", "=", uid).orderBy("id").execute();

const setRenewal = (token: string, body: Record<string, unknown>) =>
  t.api<AutopayState>("PUT", "/user/autopay/renewal", { token, body });

describe("auto-renewal", () => {
  it("refuses what cannot be renewed, naming the field, and changes nothing", async () => {
    const { u, sub } = await customerOnPlan(0);
    const other = await t.register();
    const free = (await subsOf(t, other.uid))[0];
    for (const body of [
      { subscription_id: free.id, enabled: true },
      { subscription_id: sub.id, enabled: "yes" },
    ]) {
      const r = await t.api("PUT", "/user/autopay/renewal", { token: other.token, body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(JSON.stringify(r.body)).toMatch(/subscription_id|enabled/);
    }
    // someone else's plan
    expect((await setRenewal(other.token, { subscription_id: sub.id, enabled: true })).status).toBe(400);
    expect((await t.api<AutopayState>("GET", "/user/autopay", { token: u.token })).body.data.renewals).toEqual([]);
  });

  it("notices three days before, renews once in the last day as an automatic order, not twice", async () => {
    const { u, sub, end } = await customerOnPlan(5000);
    const on = await setRenewal(u.token, { subscription_id: sub.id, enabled: true });
    expect(on.body.data.renewals).toEqual([sub.id]);

    // Four days before: nothing yet.
    await runAutoRenewals(t.ctx, new Date(end - 4 * DAY_MS));
    expect(await events("subscription.renewal_due", u.uid)).toHaveLength(0);
    // Three days before: the notice, once however often the job runs.
    await runAutoRenewals(t.ctx, new Date(end - 3 * DAY_MS + 60_000));
    await runAutoRenewals(t.ctx, new Date(end - 2 * DAY_MS));
    const due = await events("subscription.renewal_due", u.uid);
    expect(due).toHaveLength(1);
    expect(JSON.parse(due[0].payload)).toMatchObject({ subscription_id: sub.id, amount: 1000, balance: 5000 });
    expect(await balanceOf(t, u.uid)).toBe(5000);

    // Within the last day: renewed from the balance, once.
    const at = new Date(end - 12 * 3_600_000);
    expect((await runAutoRenewals(t.ctx, at)).renewed).toBe(1);
    expect((await runAutoRenewals(t.ctx, at)).renewed).toBe(0);
    expect((await runAutoRenewals(t.ctx, new Date(end - 3_600_000))).renewed).toBe(0);
    expect(await balanceOf(t, u.uid)).toBe(4000);
    const renewed = (await subsOf(t, u.uid)).find((s) => s.id === sub.id)!;
    expect(Date.parse(renewed.end_at!)).toBeGreaterThan(end + 27 * DAY_MS);

    const orders = await myOrders(u.token);
    const auto = orders.filter((o) => o.automatic);
    expect(auto).toHaveLength(1);
    expect(auto[0]).toMatchObject({ type: 4, status: 1, amount: 1000, subscription_id: sub.id, pay_method: 1 });
    const ledger = await t.api<Paged<{ order_id: string | null; change: number }>>("GET", "/user/ledger", {
      token: u.token,
      query: { page: 1, size: 50 },
    });
    expect(ledger.body.data.list.filter((l) => l.order_id === auto[0].trade_id).map((l) => l.change)).toEqual([-1000]);
    const paid = (await events("order.paid", u.uid)).map((e) => JSON.parse(e.payload));
    expect(paid.find((p) => p.trade_id === auto[0].trade_id)).toMatchObject({ automatic: true, amount: 1000 });
    expect(paid.filter((p) => p.automatic)).toHaveLength(1);
  });

  it("with too little balance places no order, says so once a day, and renews once the balance allows", async () => {
    const { u, sub } = await customerOnPlan(300);
    // The plan ends at noon Shanghai (04:00 UTC) ten days from now: 20 h and 8 h before the end then
    // fall on two Shanghai days whatever the hour the test runs at (an end near midnight has its
    // whole last day on one date).
    const today = new Date();
    const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 10, 4);
    await t.db
      .updateTable("subscriptions")
      .set({ end_at: new Date(end).toISOString() })
      .where("id", "=", sub.id)
      .execute();
    await setRenewal(u.token, { subscription_id: sub.id, enabled: true });
    const day1 = new Date(end - 20 * 3_600_000);
    expect((await runAutoRenewals(t.ctx, day1)).failed).toBe(1);
    expect((await runAutoRenewals(t.ctx, new Date(day1.getTime() + 60_000))).failed).toBe(0);
    const failed = await events("subscription.renewal_failed", u.uid);
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0].payload)).toMatchObject({
      message: "余额不足，自动续费失败",
      amount: 1000,
      balance: 300,
    });
    expect((await myOrders(u.token)).filter((o) => o.automatic)).toHaveLength(0);
    expect(await balanceOf(t, u.uid)).toBe(300);

    // The next Shanghai day it tries again; with the balance topped up it renews.
    await giveBalance(t, u.uid, 700);
    const day2 = new Date(day1.getTime() + 12 * 3_600_000);
    expect((await runAutoRenewals(t.ctx, day2)).renewed).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(0);
    expect((await myOrders(u.token)).filter((o) => o.automatic)).toHaveLength(1);
  });

  it("turned off, renews nothing", async () => {
    const { u, sub, end } = await customerOnPlan(5000);
    await setRenewal(u.token, { subscription_id: sub.id, enabled: true });
    const off = await setRenewal(u.token, { subscription_id: sub.id, enabled: false });
    expect(off.body.data.renewals).toEqual([]);
    expect((await runAutoRenewals(t.ctx, new Date(end - 3_600_000))).renewed).toBe(0);
    expect(await balanceOf(t, u.uid)).toBe(5000);
  });

  it(
    "two processes running the job at once renew once",
    onlyOn("postgres", "SQLite runs one write at a time"),
    async () => {
      const { u, sub, end } = await customerOnPlan(5000);
      await setRenewal(u.token, { subscription_id: sub.id, enabled: true });
      const at = new Date(end - 6 * 3_600_000);
      const runs = await Promise.all([
        runAutoRenewals(t.ctx, at),
        runAutoRenewals(t.ctx, at),
        runAutoRenewals(t.ctx, at),
      ]);
      expect(runs.reduce((n, r) => n + r.renewed, 0)).toBe(1);
      expect(await balanceOf(t, u.uid)).toBe(4000);
      expect((await myOrders(u.token)).filter((o) => o.automatic)).toHaveLength(1);
    },
  );
});

describe("automatic traffic top-up", () => {
  /** A customer on 100 GB with a rule buying a 10 GB pack of 3.00 below 5 % left, capped at `cap`. */
  async function withRule(cap: number, fen = 5000) {
    const { u } = await customerOnPlan(fen);
    const pack = await makePlan(t, { type: 3, level: 1, monthly_fee: 300, traffic: 10 });
    const r = await t.api<AutopayState>("PUT", "/user/autopay/topup", {
      token: u.token,
      body: { enabled: true, plan_id: pack.id, period: "monthly", monthly_cap: cap },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.topup).toMatchObject({ threshold: 5, monthly_cap: cap, below: false });
    return { u, pack };
  }
  /** Charges usage as the frp poller's billing does, then evaluates as it does after its commit. */
  async function charge(uid: number, gb: number) {
    await transact(t.ctx, (trx) => chargeTraffic(trx, uid, gb * GB));
    return evaluateTopups(t.ctx, [uid]);
  }
  const packsOf = async (uid: number, packId: number) =>
    (await subsOf(t, uid)).filter((s) => s.plan_id === packId).length;

  it("refuses a rule without a pack on sale or with a bad cap, naming the field", async () => {
    const { u } = await customerOnPlan(0);
    const plan = await makePlan(t, { monthly_fee: 1000 });
    for (const [body, field] of [
      [{ enabled: true, plan_id: plan.id, period: "monthly", monthly_cap: 1000 }, "plan_id"],
      [{ enabled: true, plan_id: plan.id, period: "monthly", monthly_cap: -1 }, "monthly_cap"],
      [{ enabled: true, plan_id: plan.id, period: "monthly", monthly_cap: 1000, threshold: 90 }, "threshold"],
    ] as const) {
      const r = await t.api("PUT", "/user/autopay/topup", { token: u.token, body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(JSON.stringify(r.body)).toContain(field);
    }
    expect((await t.api<AutopayState>("GET", "/user/autopay", { token: u.token })).body.data.topup).toBeNull();
  });

  it("buys the pack at the crossing, once per crossing, as an automatic order with its ledger line", async () => {
    const { u, pack } = await withRule(10_000);
    expect(await charge(u.uid, 90)).toBe(0);
    expect(await charge(u.uid, 6)).toBe(1); // 4 % left: below 5 %
    expect(await charge(u.uid, 0.5)).toBe(0);
    expect(await packsOf(u.uid, pack.id)).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(4700);
    const auto = (await myOrders(u.token)).filter((o) => o.automatic);
    expect(auto).toHaveLength(1);
    expect(auto[0]).toMatchObject({ type: 3, status: 1, amount: 300, plan_id: pack.id });
    const paid = (await events("order.paid", u.uid)).map((e) => JSON.parse(e.payload));
    expect(paid.find((p) => p.trade_id === auto[0].trade_id)).toMatchObject({ automatic: true });
    const state = (await t.api<AutopayState>("GET", "/user/autopay", { token: u.token })).body.data;
    expect(state.spent_this_month).toBe(300);

    // Above again (the pack), then below again: a second crossing buys again.
    await charge(u.uid, 0);
    expect(await evaluateTopups(t.ctx, [u.uid])).toBe(0);
    expect(await charge(u.uid, 10)).toBe(1);
    expect(await packsOf(u.uid, pack.id)).toBe(2);
  });

  it("never spends beyond the monthly cap and says why", async () => {
    const { u, pack } = await withRule(500);
    expect(await charge(u.uid, 96)).toBe(1);
    await evaluateTopups(t.ctx, [u.uid]); // above again: re-armed
    expect(await charge(u.uid, 10)).toBe(0); // 300 + 300 > 500
    expect(await packsOf(u.uid, pack.id)).toBe(1);
    expect(await balanceOf(t, u.uid)).toBe(4700);
    const failed = await events("traffic.topup_failed", u.uid);
    expect(failed).toHaveLength(1);
    expect(JSON.parse(failed[0].payload).message).toContain("每月上限");
  });

  it("with too little balance buys nothing and says so", async () => {
    const { u, pack } = await withRule(10_000, 100);
    expect(await charge(u.uid, 96)).toBe(0);
    expect(await packsOf(u.uid, pack.id)).toBe(0);
    expect(await balanceOf(t, u.uid)).toBe(100);
    const failed = await events("traffic.topup_failed", u.uid);
    expect(JSON.parse(failed[0].payload).message).toBe("余额不足，自动购买流量包失败");
  });

  it(
    "concurrent evaluations buy once and hold the cap",
    onlyOn("postgres", "SQLite runs one write at a time"),
    async () => {
      const { u, pack } = await withRule(300);
      await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 97 * GB));
      const outcomes = await Promise.all([1, 2, 3, 4].map(() => evaluateTopup(t.ctx, u.uid)));
      expect(outcomes.filter((o) => o === "bought")).toHaveLength(1);
      expect(await packsOf(u.uid, pack.id)).toBe(1);
      expect(await balanceOf(t, u.uid)).toBe(4700);
    },
  );
});
