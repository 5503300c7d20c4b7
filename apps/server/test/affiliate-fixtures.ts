import type {
  AdminWithdrawalRow,
  AffSetting,
  AffSummary,
  CreateOrderResult,
  Paged,
  RebateRow,
  WithdrawalRow,
} from "@burrow/contract";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { releaseRebates } from "../src/modules/affiliate/affiliate.service";
import { createTestApp, nextPhone, type TestApp } from "./harness";
import { adminOf, giveBalance, makePlan } from "./store-fixtures";
import { idNumbers } from "./verify-fixtures";

export type AffCustomer = { uid: number; token: string; phone: string };
type Customer = AffCustomer;

/**
 * The set-up of the affiliate module's suites: one app and a manager's token, the programme's
 * settings put back before each test, and customers who sign up, invite, buy, verify and withdraw
 * through the API. `get()` gives the app once the file's beforeAll ran.
 */
export function affiliateSuite() {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await adminOf(t);
  });
  afterAll(() => t.close());

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

  return {
    get: () => ({ t, admin }),
    signUp,
    customer,
    summary,
    pair,
    setSetting,
    rebates,
    withdraw,
    decide,
    buy,
    verifyAs,
    inviterWithAvailable,
  };
}
