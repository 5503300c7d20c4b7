import type {
  AdminWithdrawalRow,
  AffSummary,
  CreateOrderResult,
  Paged,
  VerifyStartResult,
  VerifyState,
  WithdrawalRow,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";
import { adminOf, giveBalance, makePlan } from "../../../test/store-fixtures";
import {
  approveReview,
  idImage,
  idNumbers,
  postReview,
  REDIRECT_ENV,
  redirectNotify,
  redirectRequestId,
} from "../../../test/verify-fixtures";
import { releaseRebates } from "./affiliate.service";

/*
 * An external withdrawal's payee must be the verified person. Only the masked verified name (`张*`)
 * used to be stored, so 张四 passed for 张三; now the keyed hash of the full name is kept from the
 * submission on, on every path to done: the sandbox, a redirect provider's result, an operator's
 * approval of a manual review.
 */

type Mode = "sandbox" | "redirect" | "manual";
const ENV: Record<Mode, Record<string, string>> = {
  sandbox: {},
  redirect: REDIRECT_ENV,
  manual: { VERIFY_PROVIDER: "manual" },
};

const idNumber = idNumbers(700);

type Customer = { uid: number; token: string };

/** A world of one verification mode: customers, their verification, an inviter with rebate to withdraw. */
function world(mode: Mode) {
  let t: TestApp;
  let admin: string;
  const ctx = {
    get t() {
      return t;
    },
    get admin() {
      return admin;
    },
    async start() {
      t = await createTestApp(ENV[mode]);
      admin = await adminOf(t);
      const s = await t.api("PATCH", "/super/aff/setting", {
        token: admin,
        body: { rate_bp: 5000, hold_days: 0, min_withdraw: 100 },
      });
      expect(s.body.code).toBe("SUCCESS");
    },
    async customer(invite?: string): Promise<Customer> {
      const phone = nextPhone();
      await t.api("POST", "/auth/sms", { body: { phone, scene: "register" } });
      const r = await t.api<{ token: string }>("POST", "/auth/register", {
        body: { phone, code: t.sms.last(phone), password: "password-123", ...(invite && { invite_code: invite }) },
      });
      expect(r.body.code).toBe("SUCCESS");
      const info = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: r.body.data.token });
      return { uid: info.body.data.uid, token: r.body.data.token };
    },
    summary: async (c: Customer) => (await t.api<AffSummary>("GET", "/user/aff", { token: c.token })).body.data,
    /** Verifies the customer as `name` the way this mode does, through the API. */
    async verify(c: Customer, name: string): Promise<void> {
      const body = { real_name: name, id_number: idNumber() };
      if (mode === "manual") {
        const files = { id_front: idImage("png"), id_back: idImage("jpg") };
        expect((await postReview(t, c.token, body, files)).body.data.status).toBe(2);
        const ok = await approveReview(t, admin, c.uid);
        expect(ok.body.code).toBe("SUCCESS");
      } else {
        const r = await t.api<VerifyStartResult>("POST", "/user/verify", { token: c.token, body });
        expect(r.body.code).toBe("SUCCESS");
        if (mode === "redirect") {
          expect(r.body.data.status).toBe(2);
          expect((await redirectNotify(t, redirectRequestId(r), "done")).body).toBe("success");
        }
      }
      expect((await t.api<VerifyState>("GET", "/user/verify", { token: c.token })).body.data.status).toBe(1);
    },
    /** An inviter verified as `name` with 500 fen of rebate to withdraw (the invitee verified as 王五). */
    async inviterWith(name: string): Promise<Customer> {
      const inviter = await ctx.customer();
      const invitee = await ctx.customer((await ctx.summary(inviter)).invite_code);
      await ctx.verify(invitee, "王五");
      await ctx.verify(inviter, name);
      const plan = await makePlan(t, { monthly_fee: 1000 });
      await giveBalance(t, invitee.uid, 1000);
      const order = await t.api<CreateOrderResult>("POST", "/user/order", {
        token: invitee.token,
        body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
      });
      expect(order.body.code).toBe("SUCCESS");
      await releaseRebates(t.ctx, new Date(Date.now() + 1000));
      expect((await ctx.summary(inviter)).available).toBe(500);
      return inviter;
    },
    withdraw: (c: Customer, account_name: string) =>
      t.api<WithdrawalRow>("POST", "/user/aff/withdraw", {
        token: c.token,
        body: { amount: 300, method: "alipay", account: "13912345678", account_name },
      }),
    withdrawals: (uid: number) => t.db.selectFrom("aff_withdrawals").select("id").where("uid", "=", uid).execute(),
    async queueRow(id: number): Promise<AdminWithdrawalRow> {
      const list = await t.api<Paged<AdminWithdrawalRow>>("GET", "/super/aff/list", { token: admin, query: { id } });
      return list.body.data.list[0];
    },
  };
  return ctx;
}

describe.each(["sandbox", "redirect", "manual"] as const)("the payee is the verified name in full (%s)", (mode) => {
  const w = world(mode);
  beforeAll(() => w.start());
  afterAll(() => w.t.close());

  it("张三 verified: payee 张四 is refused (400 naming account_name, nothing recorded), 张三 accepted", async () => {
    const inviter = await w.inviterWith("张三");
    const other = await w.withdraw(inviter, "张四");
    expect([other.status, other.body.code]).toEqual([400, 10000]);
    expect(other.body.msg).toContain("account_name");
    expect(other.body.msg).toContain("张*");
    expect(await w.withdrawals(inviter.uid)).toEqual([]);
    expect((await w.summary(inviter)).available).toBe(500);

    const ok = await w.withdraw(inviter, "张三");
    expect(ok.body.code).toBe("SUCCESS");
    expect(ok.body.data).toMatchObject({ status: 2, amount: 300, account_name: "张三" });
    expect(await w.queueRow(ok.body.data.id)).toMatchObject({
      verified_name: "张*",
      name_matches: true,
      name_check: "exact",
    });
  });
});

describe("how names compare", () => {
  const w = world("sandbox");
  beforeAll(() => w.start());
  afterAll(() => w.t.close());

  it("spaces and the form of a name's middle dot do not matter; another given name does", async () => {
    const inviter = await w.inviterWith("艾力·买买提");
    const wrong = await w.withdraw(inviter, "艾力·买买江");
    expect([wrong.status, wrong.body.code]).toEqual([400, 10000]);
    const ok = await w.withdraw(inviter, "艾力 • 买买提");
    expect(ok.body.code).toBe("SUCCESS");
  });

  it("a verification done before full names were hashed is compared masked, and the queue says so", async () => {
    const inviter = await w.inviterWith("张三");
    // As the 2026-11-27T15-00 migration leaves a request done before it.
    await w.t.db.updateTable("verifications").set({ name_hash: null }).where("uid", "=", inviter.uid).execute();
    const wrong = await w.withdraw(inviter, "李四");
    expect([wrong.status, wrong.body.code]).toEqual([400, 10000]);
    // Same first character and length: only the weaker check, which lets it through, flagged.
    const weak = await w.withdraw(inviter, "张四");
    expect(weak.body.code).toBe("SUCCESS");
    expect(await w.queueRow(weak.body.data.id)).toMatchObject({ name_matches: true, name_check: "masked" });
  });
});

describe("a manual review submitted before full names were hashed", () => {
  const w = world("manual");
  beforeAll(() => w.start());
  afterAll(() => w.t.close());

  it("takes the name from its evidence when approved", async () => {
    const c = await w.customer();
    const body = { real_name: "张三", id_number: idNumber() };
    expect((await postReview(w.t, c.token, body, { id_front: idImage("png"), id_back: idImage("png") })).status).toBe(
      200,
    );
    await w.t.db.updateTable("verifications").set({ name_hash: null }).where("uid", "=", c.uid).execute();
    const ok = await approveReview(w.t, w.admin, c.uid);
    expect(ok.body.code).toBe("SUCCESS");
    const row = await w.t.db
      .selectFrom("verifications")
      .select(["name_hash", "evidence_identity"])
      .where("uid", "=", c.uid)
      .executeTakeFirstOrThrow();
    expect(row.evidence_identity).toBeNull();
    expect(row.name_hash).toMatch(/^[0-9a-f]{64}$/);
    // Compared in full: another given name is refused even without any rebate to withdraw.
    const other = await w.t.api("POST", "/user/aff/withdraw", {
      token: c.token,
      body: { amount: 300, method: "alipay", account: "13912345678", account_name: "张四" },
    });
    expect([other.status, other.body.code]).toEqual([400, 10000]);
    expect(other.body.msg).toContain("account_name");
  });
});
