import type {
  AdminWithdrawalRow,
  AffSetting,
  AffSummary,
  CreateOrderResult,
  InvoiceableOrder,
  Paged,
  RebateRow,
  WithdrawalRow,
} from "@burrow/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, dropPhone, nextPhone, type TestApp } from "../../../test/harness";
import { adminOf, balanceOf, giveBalance, makePlan } from "../../../test/store-fixtures";
import { idNumbers } from "../../../test/verify-fixtures";
import { DAY_MS } from "../../shared/time";
import { closeExpiredOrders, recordOnlinePayment } from "../orders/orders.service";
import { releaseRebates } from "./affiliate.service";

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await adminOf(t);
});
afterAll(() => t.close());

type Customer = { uid: number; token: string; phone: string };

/** Signs up through the real SMS + register flow, with an invite code when given. */
async function signUp(invite?: string, phone = nextPhone()) {
  await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
  return t.api<{ token: string }>("POST", "/auth/register", {
    body: { phone, code: t.sms.last(phone), password: "password-123", ...(invite && { invite_code: invite }) },
  });
}
async function customer(invite?: string): Promise<Customer> {
  const phone = nextPhone();
  const r = await signUp(invite, phone);
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  const info = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: r.body.data.token });
  return { uid: info.body.data.uid, token: r.body.data.token, phone };
}
const summary = async (c: Customer) => (await t.api<AffSummary>("GET", "/user/aff", { token: c.token })).body.data;
/** An inviter and one invitee who signed up with the inviter's code. */
async function pair() {
  const inviter = await customer();
  const invitee = await customer((await summary(inviter)).invite_code);
  return { inviter, invitee };
}
const setSetting = (s: Partial<AffSetting>) =>
  t.api<AffSetting>("PATCH", "/super/aff/setting", {
    token: admin,
    body: { rate_bp: 1000, hold_days: 7, min_withdraw: 100, ...s },
  });
const rebates = async (c: Customer) =>
  (await t.api<Paged<RebateRow>>("GET", "/user/aff/rebate", { token: c.token, query: { size: 100 } })).body.data;
const withdraw = (c: Customer, body: Record<string, unknown>) =>
  t.api<WithdrawalRow>("POST", "/user/aff/withdraw", { token: c.token, body });
const decide = (body: Record<string, unknown>) =>
  t.api<AdminWithdrawalRow>("POST", "/super/aff/approve", { token: admin, body });
/** Buys a monthly plan (or pack) from the balance, topped up first. */
async function buy(c: Customer, fee: number, type = 2): Promise<string> {
  const plan = await makePlan(t, { monthly_fee: fee, ...(type === 3 && { type: 3 }) });
  await giveBalance(t, c.uid, fee);
  const r = await t.api<CreateOrderResult>("POST", "/user/order", {
    token: c.token,
    body: { type, plan_id: plan.id, period: "monthly", pay_method: 1 },
  });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  return r.body.data.trade_id;
}
const idNumber = idNumbers();
/** Verifies a customer's identity through the sandbox provider (done at once); answers the number. */
async function verifyAs(c: Customer, realName: string, id = idNumber()): Promise<string> {
  const r = await t.api("POST", "/user/verify", { token: c.token, body: { real_name: realName, id_number: id } });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  return id;
}
/** An inviter with `fen` of released rebate (hold 0, rate 50 %), both verified (the inviter as 张三). */
async function inviterWithAvailable(fen: number) {
  await setSetting({ rate_bp: 5000, hold_days: 0 });
  const p = await pair();
  await verifyAs(p.invitee, "王五");
  await verifyAs(p.inviter, "张三");
  await buy(p.invitee, fen * 2);
  await releaseRebates(t.ctx, new Date(Date.now() + 1000));
  await setSetting({});
  expect((await summary(p.inviter)).available).toBe(fen);
  return p;
}

beforeEach(async () => {
  await setSetting({});
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

describe("withdrawals", () => {
  it("to the balance: at once, one ledger entry; the minimum and the available amount hold", async () => {
    await setSetting({ min_withdraw: 200 });
    const { inviter } = await inviterWithAvailable(1000);
    await setSetting({ min_withdraw: 200 });
    const small = await withdraw(inviter, { amount: 199, method: "balance" });
    expect([small.status, small.body.code]).toEqual([400, 10000]);
    expect(small.body.msg).toContain("amount");
    const much = await withdraw(inviter, { amount: 1001, method: "balance" });
    expect([much.status, much.body.code]).toEqual([403, 2001]);
    const before = await balanceOf(t, inviter.uid);
    const ok = await withdraw(inviter, { amount: 600, method: "balance" });
    expect(ok.body.data).toMatchObject({ amount: 600, method: "balance", status: 1 });
    expect(await balanceOf(t, inviter.uid)).toBe(before + 600);
    const ledger = await t.db.selectFrom("balance_ledger").selectAll().where("uid", "=", inviter.uid).execute();
    expect(ledger.filter((l) => l.reason.startsWith("推广返利"))).toHaveLength(1);
    expect(await summary(inviter)).toMatchObject({ available: 400, withdrawn: 600 });
  });

  it("external: validated, one processing at a time; approve records the payout, reject returns the money", async () => {
    const { inviter } = await inviterWithAvailable(1000);
    const bad = await withdraw(inviter, {
      amount: 300,
      method: "alipay",
      account: "not an account",
      account_name: "张三",
    });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
    expect(bad.body.msg).toContain("account");
    const noBank = await withdraw(inviter, {
      amount: 300,
      method: "bank",
      account: "6222020202020202",
      account_name: "张三",
    });
    expect(noBank.body.msg).toContain("bank_name");
    const a = await withdraw(inviter, { amount: 300, method: "alipay", account: "13912345678", account_name: "张三" });
    expect(a.body.data).toMatchObject({ status: 2, account: "139****5678", account_name: "张三" });
    const second = await withdraw(inviter, {
      amount: 100,
      method: "bank",
      account: "6222 0202 0202 0202",
      account_name: "张三",
      bank_name: "工商银行",
    });
    expect([second.status, second.body.code]).toEqual([403, 2001]);
    expect(await summary(inviter)).toMatchObject({ available: 700, processing: 300, external_processing: true });

    const noRef = await decide({ id: a.body.data.id, action: "approve" });
    expect(noRef.body.msg).toContain("payout_ref");
    const approved = await decide({ id: a.body.data.id, action: "approve", payout_ref: "ALI2026112400001" });
    expect(approved.body.data).toMatchObject({ status: 1, payout_ref: "ALI2026112400001", account: "13912345678" });
    expect(await summary(inviter)).toMatchObject({ available: 700, processing: 0, withdrawn: 300 });
    const again = await decide({ id: a.body.data.id, action: "reject", reason: "重复" });
    expect([again.status, again.body.code]).toEqual([403, 2001]);

    const b = await withdraw(inviter, {
      amount: 500,
      method: "bank",
      account: "6222 0202 0202 0202",
      account_name: "张三",
      bank_name: "工商银行",
    });
    expect(b.body.data).toMatchObject({ status: 2, account: "**** 0202" });
    expect((await summary(inviter)).available).toBe(200);
    const rejected = await decide({ id: b.body.data.id, action: "reject", reason: "户名与账号不符" });
    expect(rejected.body.data).toMatchObject({ status: 3, reason: "户名与账号不符" });
    expect(await summary(inviter)).toMatchObject({ available: 700, withdrawn: 300, processing: 0 });
    const mine = await t.api<Paged<WithdrawalRow>>("GET", "/user/aff/withdraw", { token: inviter.token });
    expect(mine.body.data.list.map((w) => w.status)).toEqual([3, 1]);
    const logs = await t.db
      .selectFrom("audit_logs")
      .select(["action", "target"])
      .where("target", "in", [`withdrawal:${a.body.data.id}`, `withdrawal:${b.body.data.id}`])
      .orderBy("id")
      .execute();
    expect(logs.map((l) => l.action)).toEqual(["aff.withdraw.approve", "aff.withdraw.reject"]);
    const list = await t.api<Paged<AdminWithdrawalRow>>("GET", "/super/aff/list", {
      token: admin,
      query: { uid: inviter.uid, status: 3 },
    });
    expect(list.body.data.list.map((w) => [w.id, w.phone, w.available])).toEqual([
      [b.body.data.id, inviter.phone, 700],
    ]);
  });

  it('the operator\'s list shows no phone ("") for a customer without one', async () => {
    const { inviter } = await inviterWithAvailable(1000);
    const w = await withdraw(inviter, {
      amount: 300,
      method: "alipay",
      account: "a@example.com",
      account_name: "张三",
    });
    await dropPhone(t, inviter.uid);
    const list = await t.api<Paged<AdminWithdrawalRow>>("GET", "/super/aff/list", {
      token: admin,
      query: { uid: inviter.uid },
    });
    expect(list.body.data.list.map((x) => [x.id, x.phone])).toEqual([[w.body.data.id, ""]]);
  });

  it("concurrent approve and reject of one request act exactly once", async () => {
    const { inviter } = await inviterWithAvailable(1000);
    const w = await withdraw(inviter, {
      amount: 400,
      method: "alipay",
      account: "a@example.com",
      account_name: "张三",
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? decide({ id: w.body.data.id, action: "approve", payout_ref: `REF${i}` })
          : decide({ id: w.body.data.id, action: "reject", reason: `原因${i}` }),
      ),
    );
    expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(1);
    const logs = await t.db
      .selectFrom("audit_logs")
      .select("id")
      .where("target", "=", `withdrawal:${w.body.data.id}`)
      .execute();
    expect(logs).toHaveLength(1);
    const s = await summary(inviter);
    expect(s.available + s.withdrawn).toBe(1000);
  });

  it("20 concurrent withdrawals never take more than is available", async () => {
    const { inviter } = await inviterWithAvailable(1000);
    const before = await balanceOf(t, inviter.uid);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(inviter, { amount: 300, method: "balance" })),
    );
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.body.code === 2001)).toHaveLength(17);
    expect(await balanceOf(t, inviter.uid)).toBe(before + 900);
    expect(await summary(inviter)).toMatchObject({ available: 100, withdrawn: 900 });
  });

  it("another customer sees none of your rebates or withdrawals, and cannot decide them", async () => {
    const { inviter } = await inviterWithAvailable(1000);
    const w = await withdraw(inviter, { amount: 300, method: "alipay", account: "13912345678", account_name: "张三" });
    const other = await customer();
    expect((await rebates(other)).total).toBe(0);
    const theirs = await t.api<Paged<WithdrawalRow>>("GET", "/user/aff/withdraw", { token: other.token });
    expect(theirs.body.data.total).toBe(0);
    expect(await summary(other)).toMatchObject({ available: 0, pending: 0, invited_count: 0 });
    const steal = await t.api("POST", "/super/aff/approve", {
      token: other.token,
      body: { id: w.body.data.id, action: "reject", reason: "x" },
    });
    expect(steal.status).toBe(403);
  });
});

// ---------------------------------------------------------------- issue 30: money and self-referral

/** Places an order and pays it online through the gateway's notify path (or from the balance: `pay_method` 1). */
async function payOrder(c: Customer, body: Record<string, unknown>, opts: { ip?: string } = {}): Promise<string> {
  const r = await t.api<CreateOrderResult>("POST", "/user/order", {
    token: c.token,
    body: { pay_method: 2, ...body },
    ...(opts.ip && { ip: opts.ip }),
  });
  if (r.body.code !== "SUCCESS") throw new Error(JSON.stringify(r.body));
  const { trade_id, amount, status } = r.body.data;
  if (status !== 1) await recordOnlinePayment(t.ctx, { tradeId: trade_id, channelTradeId: `GW${trade_id}`, amount });
  return trade_id;
}
const orderRows = (tradeIds: string[]) =>
  t.db
    .selectFrom("orders")
    .select(["trade_id", "status", "amount", "refunded_amount"])
    .where("trade_id", "in", tradeIds)
    .orderBy("id")
    .execute();
/** What the inviter still earns from these orders (amount − reversed of their rebates). */
async function keptRebate(inviter: Customer, tradeIds: string[]): Promise<number> {
  const rows = (await rebates(inviter)).list.filter((r) => tradeIds.includes(r.trade_id));
  return rows.reduce((s, r) => s + r.amount - r.reversed, 0);
}
const refund = (tradeId: string) =>
  t.api<{ refunded: number }>("POST", "/super/epay/order/refund", { token: admin, body: { trade_id: tradeId } });

describe("rebates and invoices follow refunds that pay other orders' value back (issue 30 §1)", () => {
  it("an opening refund that pays the extensions back takes their rebates back and their invoiceable amount", async () => {
    const { inviter, invitee } = await pair();
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const buyMonth = () => payOrder(invitee, { type: 2, plan_id: plan.id, period: "monthly" });
    const o1 = await buyMonth();
    const exts = [await buyMonth(), await buyMonth(), await buyMonth()];
    const all = [o1, ...exts];
    expect(await keptRebate(inviter, all)).toBe(400);

    const r = await refund(o1);
    expect(r.body.code).toBe("SUCCESS");
    // The whole subscription comes back (a day of the first month used): close to 4,000.
    const paidBack = r.body.data.refunded;
    expect(paidBack).toBeGreaterThan(3900);
    const rows = await orderRows(all);
    // Shared pro rata across the four orders that paid for it, every one taken back.
    expect(rows.map((o) => o.status)).toEqual([-2, -2, -2, -2]);
    expect(rows.reduce((s, o) => s + Number(o.refunded_amount), 0)).toBe(paidBack);
    for (const o of rows) expect(Number(o.refunded_amount)).toBeGreaterThan(950);
    // The rebate left is that of what B kept paying, order by order (was 300: the extensions' rebates).
    const kept = rows.reduce((s, o) => s + Math.floor((1000 - Number(o.refunded_amount)) / 10), 0);
    expect(await keptRebate(inviter, all)).toBe(kept);
    expect(kept).toBeLessThanOrEqual(Math.ceil((4000 - paidBack) / 10));
    // Nothing refundable is left on the extensions, and they invoice only what was kept (was 3,000).
    for (const ext of exts) {
      const d = await t.api<{ refundable: boolean }>("GET", "/super/epay/order/detail", {
        token: admin,
        query: { trade_id: ext },
      });
      expect(d.body.data.refundable).toBe(false);
    }
    const invoice = await t.api<{ amount: number }>("POST", "/user/invoice", {
      token: invitee.token,
      body: { trade_ids: exts, title_type: "personal", title: "王五", email: "w@example.com" },
    });
    const keptOfExts = rows.filter((o) => o.trade_id !== o1).reduce((s, o) => s + 1000 - Number(o.refunded_amount), 0);
    if (keptOfExts > 0) expect(invoice.body.data.amount).toBe(keptOfExts);
    else expect(invoice.status).toBe(400);
    expect(keptOfExts).toBeLessThan(100);
  });

  it("a refund of an upgrade pays back the credit of the plan it replaced: that order's rebate and invoice follow", async () => {
    const { inviter, invitee } = await pair();
    const low = await makePlan(t, { monthly_fee: 1000, level: 2 });
    const high = await makePlan(t, { monthly_fee: 3000, level: 3 });
    const o1 = await payOrder(invitee, { type: 2, plan_id: low.id, period: "monthly" });
    const o2 = await payOrder(invitee, { type: 2, plan_id: high.id, period: "monthly" });
    const [row1, row2] = await orderRows([o1, o2]);
    const credit = 3000 - Number(row2.amount);
    expect(credit).toBeGreaterThan(900);
    expect(Number(row1.amount)).toBe(1000);

    const r = await refund(o2);
    const paidBack = r.body.data.refunded;
    expect(paidBack).toBeGreaterThan(2800);
    const [after1, after2] = await orderRows([o1, o2]);
    expect([after1.status, after2.status]).toEqual([1, -2]);
    // o1's credit paid `credit` of the 3,000 in the upgraded plan: its share of the refund is that part.
    expect(Number(after1.refunded_amount) + Number(after2.refunded_amount)).toBe(paidBack);
    expect(Math.abs(Number(after1.refunded_amount) - Math.round((paidBack * credit) / 3000))).toBeLessThanOrEqual(1);
    // A keeps the rebate of what B kept paying on each (was 100 on o1).
    const kept =
      Math.floor((1000 - Number(after1.refunded_amount)) / 10) +
      Math.floor((Number(row2.amount) - Number(after2.refunded_amount)) / 10);
    expect(await keptRebate(inviter, [o1, o2])).toBe(kept);
    expect(kept).toBeLessThan(20);
    // o1 invoices what was kept of it only (was 1,000).
    const orders = (await t.api<InvoiceableOrder[]>("GET", "/user/invoice/orders", { token: invitee.token })).body.data;
    expect(orders.find((o) => o.trade_id === o1)?.invoiceable).toBe(1000 - Number(after1.refunded_amount));
  });
});

describe("no second rebate through upgrade credit (issue 30 §2)", () => {
  /** B on an annual plan of 10,000 fen (paid online), and a dearer monthly plan of 3,000 of a higher level. */
  async function annualThenDearer() {
    const { inviter, invitee } = await pair();
    const annual = await makePlan(t, { level: 2, annual_fee: 10_000 });
    const monthly = await makePlan(t, { level: 3, monthly_fee: 3000 });
    const o1 = await payOrder(invitee, { type: 2, plan_id: annual.id, period: "annual" });
    expect(await keptRebate(inviter, [o1])).toBe(1000);
    return { inviter, invitee, monthly, o1 };
  }

  it("credit moved to the balance by an upgrade is a refund of the annual order; spending it earns one rebate", async () => {
    const { inviter, invitee, monthly, o1 } = await annualThenDearer();
    const before = await balanceOf(t, invitee.uid);
    const up = await payOrder(invitee, { type: 2, plan_id: monthly.id, period: "monthly", pay_method: 1 });
    const moved = (await balanceOf(t, invitee.uid)) - before;
    expect(moved).toBeGreaterThan(6900);
    // B spends the moved credit on two more months of the new plan, from the balance.
    const m1 = await payOrder(invitee, { type: 2, plan_id: monthly.id, period: "monthly", pay_method: 1 });
    const m2 = await payOrder(invitee, { type: 2, plan_id: monthly.id, period: "monthly", pay_method: 1 });
    const total = await keptRebate(inviter, [o1, up, m1, m2]);
    // Was 1,600 (16 % of the 10,000 B paid in): the annual order's rebate follows the 10,000 − moved it kept.
    expect(total).toBe(Math.floor((10_000 - moved) / 10) + 600);
    expect(total).toBeLessThanOrEqual(1000);
    const rows = await rebates(inviter);
    expect(rows.list.find((r) => r.trade_id === o1)).toMatchObject({
      amount: 1000,
      reversed: 1000 - Math.floor((10_000 - moved) / 10),
    });
  });

  it("a plan gift card that upgrades moves the whole credit: the annual order's rebate goes with it", async () => {
    const { inviter, invitee, monthly, o1 } = await annualThenDearer();
    const cards = await t.api<{ card_numbers: string[] }>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 1, type: 2, plan_id: monthly.id, cycle_number: 1, expire_date: "2099-12-31", one_user_limit: 1 },
    });
    const before = await balanceOf(t, invitee.uid);
    const redeemed = await t.api("POST", "/user/giftCard/redeem", {
      token: invitee.token,
      body: { card_number: cards.body.data.card_numbers[0] },
    });
    expect(redeemed.body.code).toBe("SUCCESS");
    const moved = (await balanceOf(t, invitee.uid)) - before;
    expect(moved).toBeGreaterThan(9900);
    const m1 = await payOrder(invitee, { type: 2, plan_id: monthly.id, period: "monthly", pay_method: 1 });
    const m2 = await payOrder(invitee, { type: 2, plan_id: monthly.id, period: "monthly", pay_method: 1 });
    const total = await keptRebate(inviter, [o1, m1, m2]);
    // Was 1,600 on 10,000 fen of real money.
    expect(total).toBe(Math.floor((10_000 - moved) / 10) + 600);
    expect(total).toBeLessThanOrEqual(1000);
  });
});

describe("self-referral does not pay out in cash (issue 30 §3)", () => {
  it("a rebate waits for the invitee's verified identity; external withdrawals need the verified payee", async () => {
    await setSetting({ hold_days: 0, min_withdraw: 100 });
    // A second phone signed up with one's own code, from the same address and browser.
    const ip = "203.0.113.30";
    const inviter = await customer();
    // Sign in again from the shared address (the login log records it).
    const login = await t.api<{ token: string }>("POST", "/auth/login", {
      body: { phone: inviter.phone, password: "password-123" },
      ip,
    });
    expect(login.body.code).toBe("SUCCESS");
    const invitee = await customer((await summary(inviter)).invite_code);
    const again = await t.api("POST", "/auth/login", { body: { phone: invitee.phone, password: "password-123" }, ip });
    expect(again.body.code).toBe("SUCCESS");
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const trade = await payOrder(invitee, { type: 2, plan_id: plan.id, period: "monthly" }, { ip });
    await releaseRebates(t.ctx, new Date(Date.now() + 1000));

    // Pending, with the reason, until the invitee verifies; nothing to withdraw (was 100 available).
    expect(await summary(inviter)).toMatchObject({ pending: 100, available: 0, waiting_verification: 100 });
    expect((await rebates(inviter)).list[0]).toMatchObject({
      trade_id: trade,
      state: 1,
      pending_reason: "等待被邀请人完成实名认证",
    });
    const early = await withdraw(inviter, { amount: 100, method: "balance" });
    expect([early.status, early.body.code]).toEqual([403, 2001]);

    const id = await verifyAs(invitee, "王五");
    expect(await summary(inviter)).toMatchObject({
      pending: 0,
      available: 100,
      waiting_verification: 0,
      verified_name: null,
    });
    expect((await rebates(inviter)).list[0]).toMatchObject({ state: 2, pending_reason: null });

    // External: refused without a verification of one's own, then for another payee name.
    const body = { amount: 100, method: "alipay", account: "13912345678", account_name: "张三" };
    const unverified = await withdraw(inviter, body);
    expect([unverified.status, unverified.body.code]).toEqual([403, 2001]);
    expect(unverified.body.msg).toContain("请先完成实名认证");
    // The invitee's number is held by the invitee: the inviter needs an identity of their own.
    const same = await t.api("POST", "/user/verify", {
      token: inviter.token,
      body: { real_name: "张三", id_number: id },
    });
    expect(same.body.code).not.toBe("SUCCESS");
    await verifyAs(inviter, "张三");
    expect((await summary(inviter)).verified_name).toBe("张*");
    const other = await withdraw(inviter, { ...body, account_name: "李四" });
    expect([other.status, other.body.code]).toEqual([400, 10000]);
    expect(other.body.msg).toContain("account_name");
    expect(other.body.msg).toContain("张*");
    const ok = await withdraw(inviter, body);
    expect(ok.body.data).toMatchObject({ status: 2, account_name: "张三" });

    // The operator's queue shows what links the two accounts.
    const list = await t.api<Paged<AdminWithdrawalRow>>("GET", "/super/aff/list", {
      token: admin,
      query: { id: ok.body.data.id },
    });
    const row = list.body.data.list[0];
    expect(row).toMatchObject({ verified_name: "张*", name_matches: true });
    expect(row.signals.map((s) => s.kind).sort()).toEqual(["device", "payer", "phone_prefix"]);
    expect(row.signals.find((s) => s.kind === "device")?.detail).toContain(ip);
    expect(row.signals.find((s) => s.kind === "payer")?.detail).toContain(trade);
  });

  it("the operator sees a shared identity: the inviter verified with the number the invitee was released under", async () => {
    await setSetting({ hold_days: 0, min_withdraw: 100 });
    const { inviter, invitee } = await pair();
    const id = await verifyAs(invitee, "张三");
    await buy(invitee, 1000);
    expect(await summary(inviter)).toMatchObject({ available: 100 });
    // The invitee's verification is reset; the number is free and the inviter takes it.
    const reset = await t.api("POST", "/super/user/verify", {
      token: admin,
      body: { uid: invitee.uid, action: "reset" },
    });
    expect(reset.body.code).toBe("SUCCESS");
    await verifyAs(inviter, "张三", id);
    const w = await withdraw(inviter, {
      amount: 100,
      method: "alipay",
      account: "a@example.com",
      account_name: "张三",
    });
    expect(w.body.code).toBe("SUCCESS");
    const list = await t.api<Paged<AdminWithdrawalRow>>("GET", "/super/aff/list", {
      token: admin,
      query: { id: w.body.data.id },
    });
    expect(list.body.data.list[0].signals.map((s) => s.kind)).toContain("id_hash");
  });
});
