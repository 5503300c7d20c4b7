import type { CreateOrderResult, Paged, PlanRegRow, SubscriptionList } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { giveBalance, makePlan, subsOf } from "../../../test/store-fixtures";
import { acquireLease, releaseLease } from "../../shared/jobs";
import { transact } from "../../shared/tx";
import { GB } from "./default-plan";
import { DAY_MS } from "./periods";
import { chargeTraffic, getPlanLimits } from "./quota";
import { expireSubscriptions } from "./subscriptions.service";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const buy = (token: string, body: Record<string, unknown>) =>
  t.api<CreateOrderResult>("POST", "/user/order", { token, body: { pay_method: 1, period: "monthly", ...body } });

/** A customer with a 10 GB plan and two 5 GB packs: `later` (bought first) ends in 3 months, `sooner` in 1. */
async function customerWithPacks() {
  const plan = await makePlan(t, { traffic: 10, monthly_fee: 100 });
  const pack = await makePlan(t, { type: 3, traffic: 5, monthly_fee: 100 });
  const u = await t.register();
  await giveBalance(t, u.uid, 1000);
  await buy(u.token, { type: 2, plan_id: plan.id });
  await buy(u.token, { type: 3, plan_id: pack.id });
  await buy(u.token, { type: 3, plan_id: pack.id });
  const subs = await subsOf(t, u.uid);
  const planSub = subs.find((s) => s.plan_id === plan.id)!;
  const [later, sooner] = subs.filter((s) => s.kind === 3);
  // The first pack bought ends last: expiry, not purchase order, decides.
  later.end_at = new Date(Date.now() + 90 * DAY_MS).toISOString();
  await t.db.updateTable("subscriptions").set({ end_at: later.end_at }).where("id", "=", later.id).execute();
  expect(Date.parse(sooner.end_at ?? "")).toBeLessThan(Date.parse(later.end_at ?? ""));
  const used = async () =>
    Object.fromEntries(
      (await subsOf(t, u.uid))
        .filter((s) => [planSub.id, later.id, sooner.id].includes(s.id))
        .map((s) => [
          s.id === planSub.id ? "plan" : s.id === sooner.id ? "sooner" : "later",
          [Number(s.traffic_used) / GB, s.status],
        ]),
    );
  return { u, plan, pack, used };
}

describe("traffic charging", () => {
  it("charges the plan first, then packs by earliest expiry, turning each spent one over quota", async () => {
    const { u, used } = await customerWithPacks();
    const charge = (gb: number) => transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, gb * GB));
    expect(await charge(8)).toEqual({ overQuota: false });
    expect(await used()).toEqual({ plan: [8, 1], sooner: [0, 1], later: [0, 1] });
    expect(await charge(3)).toEqual({ overQuota: false });
    expect(await used()).toEqual({ plan: [10, 2], sooner: [1, 1], later: [0, 1] });
    expect(await charge(6)).toEqual({ overQuota: false });
    expect(await used()).toEqual({ plan: [10, 2], sooner: [5, 2], later: [2, 1] });
    const limits = await getPlanLimits(t.db, u.uid);
    expect(limits).toMatchObject({ traffic_quota: 20 * GB, traffic_used: 17 * GB, usable: true });
    // Past everything: the rest lands on the last one and the customer is over quota.
    expect(await charge(4)).toEqual({ overQuota: true });
    expect(await used()).toEqual({ plan: [10, 2], sooner: [5, 2], later: [6, 2] });
    expect((await getPlanLimits(t.db, u.uid))?.usable).toBe(false);
    expect(await charge(0)).toEqual({ overQuota: false });
  });

  it("a new traffic pack or a renewal makes an over-quota customer usable again", async () => {
    const { u, plan, pack } = await customerWithPacks();
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 20 * GB));
    expect((await getPlanLimits(t.db, u.uid))?.usable).toBe(false);
    await buy(u.token, { type: 3, plan_id: pack.id });
    expect((await getPlanLimits(t.db, u.uid))?.usable).toBe(true);
    const first = await t.db
      .selectFrom("subscriptions")
      .select(["trade_id", "status"])
      .where("uid", "=", u.uid)
      .where("plan_id", "=", plan.id)
      .executeTakeFirstOrThrow();
    expect(first.status).toBe(2);
    await buy(u.token, { type: 4, trade_id: first.trade_id });
    const renewed = await t.db
      .selectFrom("subscriptions")
      .select(["status", "traffic_quota"])
      .where("trade_id", "=", first.trade_id)
      .executeTakeFirstOrThrow();
    expect([renewed.status, Number(renewed.traffic_quota)]).toEqual([1, 20 * GB]);
  });
});

describe("expiry job", () => {
  it("expires ended subscriptions, gives the free plan back, emits, and is idempotent", async () => {
    const plan = await makePlan(t, { monthly_fee: 100 });
    const u = await t.register();
    await giveBalance(t, u.uid, 100);
    await buy(u.token, { type: 2, plan_id: plan.id });
    const seen: number[] = [];
    t.ctx.events.on("subscription.changed", ({ uid }) => seen.push(uid));
    const later = new Date(Date.now() + 40 * DAY_MS);
    expect(await expireSubscriptions(t.ctx, new Date())).toBe(0);
    expect(await expireSubscriptions(t.ctx, later)).toBeGreaterThanOrEqual(1);
    expect(seen).toContain(u.uid);
    const subs = await subsOf(t, u.uid);
    expect(subs.find((s) => s.plan_id === plan.id)?.status).toBe(-1);
    const free = subs.filter((s) => s.end_at === null && s.status === 1);
    expect(free).toHaveLength(1);
    const count = subs.length;
    expect(await expireSubscriptions(t.ctx, later)).toBe(0);
    expect(await subsOf(t, u.uid)).toHaveLength(count);
  });
});

describe("job leases", () => {
  it("lets one holder at a time run a job until its lease lapses or is released", async () => {
    const now = new Date();
    expect(await acquireLease(t.db, "test.job", 60_000, "A", now)).toBe(true);
    expect(await acquireLease(t.db, "test.job", 60_000, "B", now)).toBe(false);
    expect(await acquireLease(t.db, "test.job", 60_000, "A", now)).toBe(true);
    expect(await acquireLease(t.db, "test.job", 60_000, "B", new Date(now.getTime() + 61_000))).toBe(true);
    expect(await acquireLease(t.db, "test.job", 60_000, "A", new Date(now.getTime() + 62_000))).toBe(false);
    await releaseLease(t.db, "test.job", "B");
    expect(await acquireLease(t.db, "test.job", 60_000, "A", new Date(now.getTime() + 63_000))).toBe(true);
    const race = await Promise.all(
      ["P1", "P2", "P3", "P4"].map((h) => acquireLease(t.db, "test.race", 60_000, h, now)),
    );
    expect(race.filter(Boolean)).toHaveLength(1);
  });
});

describe("GET /user/subscription", () => {
  it("lists my plans and packs with traffic used and left, live first, and my limits now", async () => {
    const { u } = await customerWithPacks();
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 3 * GB));
    const r = await t.api<SubscriptionList>("GET", "/user/subscription", { token: u.token });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.total).toBe(4);
    const statuses = r.body.data.list.map((s) => s.status);
    expect(statuses.slice(0, 3)).toEqual([1, 1, 1]);
    expect(statuses[3]).toBe(-1);
    const plan = r.body.data.list.find((s) => s.kind === 2 && s.status === 1)!;
    expect(plan).toMatchObject({
      traffic_quota: 10 * GB,
      traffic_used: 3 * GB,
      traffic_left: 7 * GB,
      renewable: true,
      free: false,
    });
    expect(r.body.data.limits).toMatchObject({ traffic_quota: 20 * GB, traffic_used: 3 * GB, usable: true });
    const packs = await t.api<SubscriptionList>("GET", "/user/subscription", { token: u.token, query: { kind: 3 } });
    expect(packs.body.data.list.every((s) => s.kind === 3)).toBe(true);
    const other = await t.register();
    const mine = await t.api<SubscriptionList>("GET", "/user/subscription", { token: other.token });
    expect(mine.body.data.list.map((s) => s.free)).toEqual([true]);
  });
});

describe("GET /super/plan/reg", () => {
  it("lists registrations newest first whatever their status, paged exactly, where the customer sees live ones first", async () => {
    const admin = await t.adminToken();
    const { u } = await customerWithPacks();
    const ids = (await subsOf(t, u.uid)).map((s) => s.id).sort((a, b) => b - a);
    // the newest registration ends: the customer's list moves it down, the operators' does not
    await t.db.updateTable("subscriptions").set({ status: -1 }).where("id", "=", ids[0]).execute();
    const reg = (query: Record<string, unknown>) =>
      t.api<Paged<PlanRegRow>>("GET", "/super/plan/reg", { token: admin, query: { user_id: u.uid, ...query } });
    const whole = (await reg({ page: 1, size: 10 })).body.data;
    expect(whole.list.map((s) => s.id)).toEqual(ids);
    expect(whole.total).toBe(4);
    const second = (await reg({ page: 2, size: 3 })).body.data;
    expect([second.list.map((s) => s.id), second.total]).toEqual([ids.slice(3), 4]);
    const mine = await t.api<SubscriptionList>("GET", "/user/subscription", { token: u.token });
    expect(mine.body.data.list.map((s) => s.status)).toEqual([1, 1, -1, -1]);
    expect(mine.body.data.list[0].id).not.toBe(ids[0]);
  });
});
