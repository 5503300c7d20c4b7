import type { AdminWithdrawalRow, CreateOrderResult, InvoiceableOrder, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { type AffCustomer, affiliateSuite } from "../../../test/affiliate-fixtures";
import type { TestApp } from "../../../test/harness";
import { balanceOf, makePlan } from "../../../test/store-fixtures";
import { recordOnlinePayment } from "../orders/orders.service";
import { releaseRebates } from "./affiliate.service";

/* Rebates that must not pay: refunds of orders paid with others' value, upgrade credit, self-referral (issue 30 §1–§3). */

const suite = affiliateSuite();
const { customer, summary, pair, setSetting, rebates, withdraw, buy, verifyAs } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

async function payOrder(c: AffCustomer, body: Record<string, unknown>, opts: { ip?: string } = {}): Promise<string> {
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
async function keptRebate(inviter: AffCustomer, tradeIds: string[]): Promise<number> {
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
