import type { CheckInResult, SubscriptionList } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { giveBalance, makePlan, subsOf } from "../../../test/store-fixtures";
import { transact } from "../../shared/tx";
import { GB } from "./default-plan";
import { chargeTraffic } from "./quota";

const MB = 1024 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CHECKIN_MIN_MB: "300", CHECKIN_MAX_MB: "300" });
});
afterAll(() => t.close());

const buy = async (token: string, body: Record<string, unknown>) => {
  const r = await t.api("POST", "/user/order", { token, body: { pay_method: 1, ...body } });
  expect(r.body.code).toBe("SUCCESS");
};
const mine = async (token: string) =>
  (await t.api<SubscriptionList>("GET", "/user/subscription", { token, query: { size: 50 } })).body.data;

describe("a plan replaced by another (issue 35 §10)", () => {
  it("the free plan says which paid plan replaced it, and its unused check-in bonus moves to that plan", async () => {
    const plan = await makePlan(t, { traffic: 1, monthly_fee: 100 });
    const u = await t.register();
    const [free] = await subsOf(t, u.uid);
    const c = await t.api<CheckInResult>("GET", "/user/checkIn", { token: u.token });
    expect(c.body.data.bonus_bytes).toBe(300 * MB);
    await giveBalance(t, u.uid, 100);
    await buy(u.token, { type: 2, plan_id: plan.id, period: "monthly" });

    const list = await mine(u.token);
    const old = list.list.find((s) => s.id === free.id)!;
    const paid = list.list.find((s) => s.plan_id === plan.id)!;
    expect(old).toMatchObject({
      status: -1,
      replaced_by: { id: paid.id, plan_name: plan.name },
      carried_quota: 300 * MB,
    });
    // The new plan holds its own traffic plus the bonus, as free traffic (no paid value).
    expect(paid).toMatchObject({ traffic_quota: GB + 300 * MB, free_quota: 300 * MB, replaced_by: null });
    expect(list.limits?.traffic_quota).toBe(GB + 300 * MB);
    const row = (await subsOf(t, u.uid)).find((s) => s.id === paid.id)!;
    expect(Number(row.paid_amount)).toBe(100);
  });

  it("an upgrade carries only the unused part of the old plan's free traffic (usage counts against paid traffic first)", async () => {
    const low = await makePlan(t, { traffic: 1, monthly_fee: 100, level: 1 });
    const high = await makePlan(t, { traffic: 2, monthly_fee: 200, level: 2 });
    const u = await t.register();
    await giveBalance(t, u.uid, 1000);
    await buy(u.token, { type: 2, plan_id: low.id, period: "monthly" });
    await t.api("GET", "/user/checkIn", { token: u.token }); // +300 MB free on the low plan
    // 1 GB + 100 MB used: the paid GB first, then 100 MB of the bonus; 200 MB of it are left.
    await transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, GB + 100 * MB));
    await buy(u.token, { type: 2, plan_id: high.id, period: "monthly" });
    const list = (await mine(u.token)).list;
    const old = list.find((s) => s.plan_id === low.id)!;
    const now = list.find((s) => s.plan_id === high.id)!;
    expect(old).toMatchObject({ replaced_by: { id: now.id, plan_name: high.name }, carried_quota: 200 * MB });
    expect(now).toMatchObject({ traffic_quota: 2 * GB + 200 * MB, free_quota: 200 * MB });
  });

  it("a plan that simply ran out was not replaced", async () => {
    const u = await t.register();
    const list = (await mine(u.token)).list;
    expect(list.every((s) => s.replaced_by === null && s.carried_quota === 0)).toBe(true);
  });
});
