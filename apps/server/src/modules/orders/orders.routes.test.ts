import type { BalanceLedgerRow, OrderDetail, OrderQuote, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/harness";
import { buy as buyAs, subscribedFor as subscribedOn } from "../../../test/order-fixtures";
import { balanceOf, giveBalance, makePlan, storeSuite, subsOf } from "../../../test/store-fixtures";
import { GB } from "../subscriptions/default-plan";
import { addMonths } from "../subscriptions/periods";

/* Buying with the balance and the subscription rules (renewals, upgrades, packs). */

const suite = storeSuite();
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});
const buy = (token: string, body: Record<string, unknown>) => buyAs(t, token, body);
const subscribedFor = (...a: Parameters<typeof subscribedOn> extends [TestApp, ...infer R] ? R : never) =>
  subscribedOn(t, ...a);

describe("buying with the balance", () => {
  it("debits the price, opens the plan, replaces the free plan, and writes the ledger in one go", async () => {
    const plan = await makePlan(t, { monthly_fee: 1990, monthly_fee_discount: 0.5, traffic: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 5000);
    const seen: number[] = [];
    t.ctx.events.on("subscription.changed", ({ uid }) => seen.push(uid));
    const r = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ status: 1, amount: 995, pay_url: null });
    expect(await balanceOf(t, u.uid)).toBe(4005);
    const subs = await subsOf(t, u.uid);
    expect(subs.map((s) => [s.plan_id === plan.id, s.status])).toEqual([
      [false, -1],
      [true, 1],
    ]);
    const paid = subs[1];
    expect(Number(paid.traffic_quota)).toBe(100 * GB);
    expect(Number(paid.paid_amount)).toBe(995);
    expect(paid.trade_id).toBe(r.body.data.trade_id);
    expect(seen).toContain(u.uid);
    const ledger = await t.api<Paged<BalanceLedgerRow>>("GET", "/user/ledger", { token: u.token, query: { size: 1 } });
    expect(ledger.body.data.total).toBe(2);
    expect(ledger.body.data.list[0]).toMatchObject({
      change: -995,
      balance_before: 5000,
      balance_after: 4005,
      order_id: r.body.data.trade_id,
    });
  });

  it("answers 20011 when the balance is short and changes nothing", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const u = await t.register();
    await giveBalance(t, u.uid, 999);
    const before = await subsOf(t, u.uid);
    const r = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe(20011);
    expect(await balanceOf(t, u.uid)).toBe(999);
    expect(await subsOf(t, u.uid)).toEqual(before);
    expect(await t.db.selectFrom("orders").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it("refuses bad input with 400/10000 naming the field, creating nothing", async () => {
    const plan = await makePlan(t, { quarterly_fee: null });
    const pack = await makePlan(t, { type: 3 });
    const off = await makePlan(t, { on_sale: false });
    const u = await t.register();
    await giveBalance(t, u.uid, 100000);
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 5, plan_id: plan.id, period: "monthly" }, "type"],
      [{ type: 2, period: "monthly" }, "plan_id"],
      [{ type: 2, plan_id: plan.id }, "period"],
      [{ type: 2, plan_id: plan.id, period: "weekly" }, "period"],
      [{ type: 2, plan_id: plan.id, period: "quarterly" }, "period"],
      [{ type: 2, plan_id: 999999, period: "monthly" }, "plan_id"],
      [{ type: 2, plan_id: off.id, period: "monthly" }, "plan_id"],
      [{ type: 2, plan_id: pack.id, period: "monthly" }, "plan_id"],
      [{ type: 3, plan_id: plan.id, period: "monthly" }, "plan_id"],
      [{ type: 2, plan_id: plan.id, period: "monthly", pay_method: 3 }, "pay_method"],
      [{ type: 2, plan_id: plan.id, period: "monthly", code: "NOSUCHCODE" }, "code"],
      [{ type: 1, amount: 1000, pay_method: 1 }, "pay_method"],
      [{ type: 1, amount: -100, pay_method: 2 }, "amount"],
      [{ type: 1, amount: 100.5, pay_method: 2 }, "amount"],
      [{ type: 1, amount: 50, pay_method: 2 }, "amount"],
      [{ type: 1, pay_method: 2 }, "amount"],
      [{ type: 1, amount: 1000, pay_method: 2, code: "X" }, "code"],
      [{ type: 4, period: "monthly" }, "trade_id"],
      [{ type: 4, trade_id: "00000000000000000000", period: "monthly" }, "trade_id"],
    ];
    for (const [body, field] of cases) {
      const r = await t.api("POST", "/user/order", { token: u.token, body: { pay_method: 1, ...body } });
      expect([field, r.status, r.body.code]).toEqual([field, 400, 10000]);
      expect(r.body.msg).toContain(field);
    }
    expect(await balanceOf(t, u.uid)).toBe(100000);
    expect(await t.db.selectFrom("orders").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
  });

  it("never overdraws under 50 concurrent purchases", async () => {
    const pack = await makePlan(t, { type: 3, monthly_fee: 1000, traffic: 10 });
    const u = await t.register();
    await giveBalance(t, u.uid, 10_500);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => buy(u.token, { type: 3, plan_id: pack.id, period: "monthly" })),
    );
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    const short = results.filter((r) => r.body.code === 20011);
    expect(ok).toHaveLength(10);
    expect(short).toHaveLength(40);
    expect(await balanceOf(t, u.uid)).toBe(500);
    const packs = (await subsOf(t, u.uid)).filter((s) => s.kind === 3);
    expect(packs).toHaveLength(10);
    const ledger = await t.db.selectFrom("balance_ledger").selectAll().where("uid", "=", u.uid).orderBy("id").execute();
    // Every row chains from the previous one: no lost or doubled update.
    for (let i = 1; i < ledger.length; i++) {
      expect(Number(ledger[i].balance_before)).toBe(Number(ledger[i - 1].balance_after));
      expect(Number(ledger[i].balance_after)).toBe(Number(ledger[i].balance_before) + Number(ledger[i].change));
    }
    expect(Number(ledger.at(-1)?.balance_after)).toBe(500);
  });
});

describe("the subscription rules", () => {
  it("extends the same plan and renews by trade id (order type 4)", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000, quarterly_fee: 3000, quarterly_fee_discount: 1, traffic: 10 });
    const u = await t.register();
    await giveBalance(t, u.uid, 10_000);
    const first = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    const sub0 = (await subsOf(t, u.uid)).find((s) => s.plan_id === plan.id)!;
    const preview = await t.api<OrderQuote>("POST", "/user/order/preview", {
      token: u.token,
      body: { type: 2, plan_id: plan.id, period: "monthly" },
    });
    expect(preview.body.data).toMatchObject({ action: "extend", subscription_id: sub0.id, amount: 1000 });
    const again = await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });
    expect(again.body.code).toBe("SUCCESS");
    const renew = await buy(u.token, { type: 4, trade_id: first.body.data.trade_id, period: "quarterly" });
    expect(renew.body.code).toBe("SUCCESS");
    const plans = (await subsOf(t, u.uid)).filter((s) => s.plan_id === plan.id);
    expect(plans).toHaveLength(1);
    const sub = plans[0];
    expect(sub.end_at).toBe(addMonths(preview.body.data.end_at ?? "", 3));
    expect(Number(sub.traffic_quota)).toBe(10 * GB * 5);
    expect(Number(sub.paid_amount)).toBe(5000);
    expect(await balanceOf(t, u.uid)).toBe(5000);
    const detail = await t.api<OrderDetail>("GET", `/user/order/${first.body.data.trade_id}`, { token: u.token });
    expect(detail.body.data).toMatchObject({ renewable: true, subscription: { id: sub.id, end_at: sub.end_at } });
    expect(detail.body.data.plan?.periods.map((p) => p.period)).toEqual(["monthly", "quarterly"]);
    const renewOrder = await t.api<OrderDetail>("GET", `/user/order/${renew.body.data.trade_id}`, { token: u.token });
    expect(renewOrder.body.data).toMatchObject({ type: 4, action: "renew", months: 3, amount: 3000 });
  });

  it("upgrades to a higher level at once, crediting the unused days pro rata", async () => {
    const std = await makePlan(t, { level: 2, monthly_fee: 3000 });
    const pro = await makePlan(t, { level: 3, monthly_fee: 5000, traffic: 200 });
    const u = await t.register();
    await giveBalance(t, u.uid, 3000);
    // Make the standard plan 30 days long with 10 used: 20 unused days of 30.00 → credit 20.00.
    const old = await subscribedFor(u, std.id, 10, 20 + 1 / 24);
    const q = await t.api<OrderQuote>("POST", "/user/order/preview", {
      token: u.token,
      body: { type: 2, plan_id: pro.id, period: "monthly" },
    });
    expect(q.body.data).toMatchObject({
      action: "upgrade",
      price: 5000,
      upgrade_credit: 2000,
      credit_to_balance: 0,
      amount: 3000,
      replaces_subscription_id: old.id,
    });
    await giveBalance(t, u.uid, 3000);
    const r = await buy(u.token, { type: 2, plan_id: pro.id, period: "monthly" });
    expect(r.body.data).toMatchObject({ status: 1, amount: 3000 });
    expect(await balanceOf(t, u.uid)).toBe(0);
    const subs = await subsOf(t, u.uid);
    expect(subs.find((s) => s.id === old.id)?.status).toBe(-1);
    const fresh = subs.find((s) => s.plan_id === pro.id)!;
    expect([fresh.status, Number(fresh.paid_amount), Number(fresh.traffic_quota)]).toEqual([1, 5000, 200 * GB]);
    const limits = await t.db
      .selectFrom("subscriptions")
      .select("id")
      .where("uid", "=", u.uid)
      .where("status", "in", [1, 2])
      .where("kind", "=", 2)
      .execute();
    expect(limits).toEqual([{ id: fresh.id }]);
  });

  it("credits the part of an upgrade credit above the price to the balance", async () => {
    const std = await makePlan(t, { level: 2, monthly_fee: 9000 });
    const pro = await makePlan(t, { level: 3, monthly_fee: 1000 });
    const u = await t.register();
    await giveBalance(t, u.uid, 9000);
    await subscribedFor(u, std.id, 0.5, 29.6);
    // total round(30.1) = 30 days, unused floor(29.6) = 29 → floor(9000 × 29 / 30) = 8700
    const r = await buy(u.token, { type: 2, plan_id: pro.id, period: "monthly" });
    expect(r.body.data).toMatchObject({ status: 1, amount: 0 });
    expect(await balanceOf(t, u.uid)).toBe(7700);
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("trade_id", "=", r.body.data.trade_id)
      .executeTakeFirstOrThrow();
    expect([Number(order.upgrade_credit), Number(order.value_added)]).toEqual([8700, 1000]);
  });

  it("refuses a lower or same-level plan with 2001 while a paid plan is in use", async () => {
    const low = await makePlan(t, { level: 2, monthly_fee: 100 });
    const low2 = await makePlan(t, { level: 2, monthly_fee: 100 });
    const high = await makePlan(t, { level: 3, monthly_fee: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1000);
    expect((await buy(u.token, { type: 2, plan_id: high.id, period: "monthly" })).body.code).toBe("SUCCESS");
    const lower = await buy(u.token, { type: 2, plan_id: low.id, period: "monthly" });
    expect(lower.status).toBe(403);
    expect(lower.body.code).toBe(2001);
    expect(lower.body.msg).toContain("等级更高");
    await buy(u.token, { type: 2, plan_id: low2.id, period: "monthly" }); // refused as well
    expect(await balanceOf(t, u.uid)).toBe(900);
    const catalog = await t.api<{ levels: { plans: { id: number; purchase: string }[] }[] }>("GET", "/user/plan", {
      token: u.token,
    });
    const kinds = Object.fromEntries(catalog.body.data.levels.flatMap((l) => l.plans).map((p) => [p.id, p.purchase]));
    expect([kinds[low.id], kinds[high.id]]).toEqual(["refused", "extend"]);
  });

  it("sells traffic packs only beside a plan, and a pack stacks instead of extending", async () => {
    const pack = await makePlan(t, { type: 3, monthly_fee: 100, traffic: 5 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1000);
    await buy(u.token, { type: 3, plan_id: pack.id, period: "monthly" });
    await buy(u.token, { type: 3, plan_id: pack.id, period: "monthly" });
    expect((await subsOf(t, u.uid)).filter((s) => s.kind === 3 && s.status === 1)).toHaveLength(2);
    // Without any plan (no default plan either) a pack is refused.
    await t.db
      .updateTable("subscriptions")
      .set({ status: -1 })
      .where("uid", "=", u.uid)
      .where("kind", "=", 2)
      .execute();
    const r = await buy(u.token, { type: 3, plan_id: pack.id, period: "monthly" });
    expect(r.body.code).toBe(2001);
  });
});
