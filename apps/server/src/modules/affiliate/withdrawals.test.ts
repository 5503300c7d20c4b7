import type { AdminWithdrawalRow, Paged, WithdrawalRow } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { affiliateSuite } from "../../../test/affiliate-fixtures";
import { dropPhone, type TestApp } from "../../../test/harness";
import { balanceOf } from "../../../test/store-fixtures";

/* Withdrawals: to the balance, or paid out by hand after an operator's decision. */

const suite = affiliateSuite();
const { customer, summary, setSetting, rebates, withdraw, decide, inviterWithAvailable } = suite;
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
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
