import type { AffSetting, CreateOrderResult } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { affiliateSuite } from "../../../test/affiliate-fixtures";
import { dropPhone, nextPhone, type TestApp } from "../../../test/harness";
import { giveBalance, makePlan } from "../../../test/store-fixtures";
import { DAY_MS } from "../../shared/time";
import { closeExpiredOrders, recordOnlinePayment } from "../orders/orders.service";
import { releaseRebates } from "./affiliate.service";

/* The programme's settings, invitations and rebates. */

const suite = affiliateSuite();
const { signUp, customer, summary, pair, setSetting, rebates, withdraw, buy, verifyAs, inviterWithAvailable } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

describe("settings", () => {
  it("are read and changed by the Manager only, validated and audited", async () => {
    const before = await t.api<AffSetting>("GET", "/super/aff/setting", { token: admin });
    expect(before.body.data).toEqual({ rate_bp: 1000, hold_days: 7, min_withdraw: 100 });
    const bad = await t.api("PATCH", "/super/aff/setting", {
      token: admin,
      body: { rate_bp: 9000, hold_days: 7, min_withdraw: 100 },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
    expect(bad.body.msg).toContain("rate_bp");
    const ok = await setSetting({ rate_bp: 1250, hold_days: 3, min_withdraw: 500 });
    expect(ok.body.data).toEqual({ rate_bp: 1250, hold_days: 3, min_withdraw: 500 });
    const logs = await t.db.selectFrom("audit_logs").selectAll().where("action", "=", "aff.setting").execute();
    expect(JSON.parse(logs.at(-1)?.detail ?? "{}").after).toMatchObject({ rate_bp: 1250 });
  });

  it("refuses customers on every /super affiliate call and changes nothing", async () => {
    const c = await customer();
    const calls = [
      t.api("GET", "/super/aff/list", { token: c.token }),
      t.api("POST", "/super/aff/approve", { token: c.token, body: { id: 1, action: "approve", payout_ref: "x" } }),
      t.api("GET", "/super/aff/setting", { token: c.token }),
      t.api("PATCH", "/super/aff/setting", { token: c.token, body: { rate_bp: 5000, hold_days: 0, min_withdraw: 1 } }),
    ];
    for (const r of await Promise.all(calls)) expect([r.status, r.body.code]).toEqual([403, 30004]);
    expect((await t.api<AffSetting>("GET", "/super/aff/setting", { token: admin })).body.data.rate_bp).toBe(1000);
  });
});

describe("invitations", () => {
  it("gives every customer an invite code and a link path; sign-up through it records the inviter", async () => {
    const { inviter, invitee } = await pair();
    const s = await summary(inviter);
    expect(s.invite_code).toMatch(/^[A-Z0-9]{8}$/);
    expect(s.invite_path).toBe(`/reg?invite=${s.invite_code}`);
    expect(s.invited_count).toBe(1);
    expect(s.days).toHaveLength(30);
    expect(s.days.at(-1)?.invited).toBe(1);
    const row = await t.db.selectFrom("users").select("referrer_uid").where("uid", "=", invitee.uid).executeTakeFirst();
    expect(row?.referrer_uid).toBe(inviter.uid);
  });

  it("refuses an unknown code with 400 naming invite_code and creates nobody", async () => {
    const phone = nextPhone();
    const r = await signUp("ZZZZ9999", phone);
    expect([r.status, r.body.code]).toEqual([400, 10000]);
    expect(r.body.msg).toContain("invite_code");
    expect(await t.db.selectFrom("users").select("uid").where("phone", "=", phone).executeTakeFirst()).toBeUndefined();
  });

  it("never invites oneself and never changes the inviter afterwards", async () => {
    const { inviter, invitee } = await pair();
    const other = await customer();
    // Signing up again with one's own phone and code: the phone is taken, nothing changes.
    const self = await signUp((await summary(invitee)).invite_code, invitee.phone);
    expect(self.body.code).not.toBe("SUCCESS");
    // No call sets the inviter: the customer's profile and the operator's user edit ignore it.
    await t.api("PATCH", "/user/info", { token: invitee.token, body: { referrer_uid: other.uid } });
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: invitee.uid, referrer_uid: other.uid } });
    const row = await t.db.selectFrom("users").select("referrer_uid").where("uid", "=", invitee.uid).executeTakeFirst();
    expect(row?.referrer_uid).toBe(inviter.uid);
    // A rebate never goes to the buyer: a row pointing at itself (forged in the database) earns nothing.
    await t.db.updateTable("users").set({ referrer_uid: other.uid }).where("uid", "=", other.uid).execute();
    await buy(other, 1000);
    expect((await rebates(other)).total).toBe(0);
  });
});

describe("rebates", () => {
  it("rebates plans, packs and renewals of invitees at the configured rate; recharges and credited orders never", async () => {
    await setSetting({ rate_bp: 1250 });
    const { inviter, invitee } = await pair();
    const planTrade = await buy(invitee, 1000);
    const packTrade = await buy(invitee, 333, 3);
    await giveBalance(t, invitee.uid, 1000);
    const renew = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: invitee.token,
      body: { type: 4, trade_id: planTrade, period: "monthly", pay_method: 1 },
    });
    expect(renew.body.code).toBe("SUCCESS");
    const renewTrade = renew.body.data.trade_id;
    // A recharge, paid online.
    const recharge = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: invitee.token,
      body: { type: 1, amount: 5000, pay_method: 2 },
    });
    expect(recharge.body.code).toBe("SUCCESS");
    await recordOnlinePayment(t.ctx, {
      tradeId: recharge.body.data.trade_id,
      channelTradeId: `GW${recharge.body.data.trade_id}`,
      amount: 5000,
    });
    // An online plan order paid after it closed: the money is credited to the balance instead.
    const plan = await makePlan(t, { monthly_fee: 2000, level: 3 });
    const late = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: invitee.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 2 },
    });
    await closeExpiredOrders(t.ctx, new Date(Date.now() + 20 * 60_000));
    await recordOnlinePayment(t.ctx, {
      tradeId: late.body.data.trade_id,
      channelTradeId: `GW${late.body.data.trade_id}`,
      amount: late.body.data.amount,
    });
    const lateRow = await t.db
      .selectFrom("orders")
      .select("fulfilment")
      .where("trade_id", "=", late.body.data.trade_id)
      .executeTakeFirstOrThrow();
    expect(lateRow.fulfilment).toBe("credited");
    // A customer nobody invited earns nobody anything.
    const loner = await customer();
    await buy(loner, 1000);

    const rows = await rebates(inviter);
    expect(rows.list.map((r) => [r.trade_id, r.order_type, r.order_amount, r.amount, r.state])).toEqual([
      [renewTrade, 4, 1000, 125, 1],
      [packTrade, 3, 333, 41, 1],
      [planTrade, 2, 1000, 125, 1],
    ]);
    expect(rows.list[0].invitee).toMatch(/^\d{3}\*{4}\d{4}$/);
    const s = await summary(inviter);
    // The recharge is no paid order here: it earns nothing (issue 35 §13).
    expect(s).toMatchObject({ pending: 291, available: 0, withdrawn: 0, invited_count: 1, paid_orders: 4 });
    expect(s.days.at(-1)?.rebate).toBe(291);
  });

  it('names an invitee without a phone by no phone (""), not a mask of its placeholder', async () => {
    await setSetting({ rate_bp: 1000 });
    const { inviter, invitee } = await pair();
    const order = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: invitee.token,
      body: { type: 2, plan_id: (await makePlan(t, { monthly_fee: 1000 })).id, period: "monthly", pay_method: 2 },
    });
    const tradeId = order.body.data.trade_id;
    await dropPhone(t, invitee.uid);
    await recordOnlinePayment(t.ctx, { tradeId, channelTradeId: `GW${tradeId}`, amount: order.body.data.amount });
    expect((await rebates(inviter)).list.map((r) => [r.trade_id, r.invitee, r.amount])).toEqual([[tradeId, "", 100]]);
  });

  it("holds a rebate for the configured days, then the job releases it once", async () => {
    await setSetting({ hold_days: 7 });
    const { inviter, invitee } = await pair();
    await verifyAs(invitee, "王五");
    await buy(invitee, 1000);
    const now = Date.now();
    expect(await releaseRebates(t.ctx, new Date(now + 6 * DAY_MS))).toBe(0);
    expect((await summary(inviter)).pending).toBe(100);
    expect(await releaseRebates(t.ctx, new Date(now + 7 * DAY_MS + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await releaseRebates(t.ctx, new Date(now + 8 * DAY_MS))).toBe(0);
    const s = await summary(inviter);
    expect(s).toMatchObject({ pending: 0, available: 100 });
    expect((await rebates(inviter)).list[0]).toMatchObject({ state: 2 });
  });

  it("reverses a held rebate when the order is refunded in full, and the job no longer releases it", async () => {
    const { inviter, invitee } = await pair();
    const trade = await buy(invitee, 1000);
    const r = await t.api("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: trade, amount: 1000, override_reason: "测试全额退款" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect((await rebates(inviter)).list[0]).toMatchObject({ amount: 100, reversed: 100, state: 3 });
    await releaseRebates(t.ctx, new Date(Date.now() + 30 * DAY_MS));
    expect(await summary(inviter)).toMatchObject({ pending: 0, available: 0 });
  });

  it("a partial refund takes back the rebate of the refunded part only", async () => {
    const { inviter, invitee } = await pair();
    const trade = await buy(invitee, 1000);
    const r = await t.api<{ refunded: number }>("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: trade },
    });
    const kept = 1000 - r.body.data.refunded;
    expect(kept).toBeGreaterThan(0);
    const row = (await rebates(inviter)).list[0];
    expect(row).toMatchObject({ state: 1, reversed: 100 - Math.floor(kept / 10) });
    expect((await summary(inviter)).pending).toBe(Math.floor(kept / 10));
  });

  it("a refund after release is recorded against the available rebate, which may go negative", async () => {
    const { inviter, invitee } = await inviterWithAvailable(500);
    await withdraw(inviter, { amount: 500, method: "balance" });
    const trade = (await rebates(inviter)).list[0].trade_id;
    await t.api("POST", "/super/epay/order/refund", {
      token: admin,
      body: { trade_id: trade, amount: 1000, override_reason: "测试全额退款" },
    });
    expect((await rebates(inviter)).list[0]).toMatchObject({ state: 2, reversed: 500 });
    expect(await summary(inviter)).toMatchObject({ available: -500, withdrawn: 500 });
    const more = await withdraw(inviter, { amount: 100, method: "balance" });
    expect([more.status, more.body.code]).toEqual([403, 2001]);
    expect(invitee.uid).toBeGreaterThan(inviter.uid);
  });
});
