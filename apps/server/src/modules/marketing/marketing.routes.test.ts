import type {
  CreatedGiftCards,
  DiscountCodeCheck,
  DiscountCodeRow,
  GiftCardRow,
  Paged,
  RechargePromotionRow,
  RedeemResult,
} from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";
import { balanceOf, giveBalance, makePlan, subsOf } from "../../../test/store-fixtures";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const auditActions = async (action: string) =>
  (await t.db.selectFrom("audit_logs").select("action").where("action", "=", action).execute()).length;

describe("promo codes", () => {
  it("creates (random or given code), lists, checks live and deletes, auditing every write", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    const other = await makePlan(t, { monthly_fee: 1000 });
    const given = await t.api<DiscountCodeRow>("POST", "/super/discountCode", {
      token: admin,
      body: { code: "vip-85", discount: 0.85, expire_date: "2099-01-01", plan_ids: [plan.id] },
    });
    expect(given.body.data).toMatchObject({
      code: "VIP-85",
      discount: 0.85,
      plan_ids: [plan.id],
      user_limit: 1,
      expired: false,
    });
    const random = await t.api<DiscountCodeRow>("POST", "/super/discountCode", {
      token: admin,
      body: { discount: 0.5, expire_date: "2099-01-01T00:00:00Z" },
    });
    expect(random.body.data.code).toMatch(/^[A-Z0-9]{8}$/);
    const dup = await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "VIP-85", discount: 0.9, expire_date: "2099-01-01" },
    });
    expect(dup.body.code).toBe(40008);
    const list = await t.api<Paged<DiscountCodeRow>>("GET", "/super/discountCode", {
      token: admin,
      query: { code: "vip-85" },
    });
    expect(list.body.data.list.map((c) => c.id)).toEqual([given.body.data.id]);

    const u = await t.register();
    const check = await t.api<DiscountCodeCheck>("POST", "/user/discountCode/check", {
      token: u.token,
      body: { code: "vip-85", type: 2, plan_id: plan.id, period: "monthly" },
    });
    expect(check.body.data).toMatchObject({ code: "VIP-85", discount: 0.85 });
    expect(check.body.data.quote).toMatchObject({ price: 1000, code_discount: 150, amount: 850 });
    const bare = await t.api<DiscountCodeCheck>("POST", "/user/discountCode/check", {
      token: u.token,
      body: { code: "VIP-85" },
    });
    expect(bare.body.data.quote).toBeNull();
    const wrongPlan = await t.api("POST", "/user/discountCode/check", {
      token: u.token,
      body: { code: "VIP-85", type: 2, plan_id: other.id, period: "monthly" },
    });
    expect([wrongPlan.status, wrongPlan.body.code]).toEqual([400, 10000]);
    expect(wrongPlan.body.msg).toContain("code");

    const del = await t.api("DELETE", "/super/discountCode", { token: admin, body: { id: random.body.data.id } });
    expect(del.body.code).toBe("SUCCESS");
    const gone = await t.api("DELETE", "/super/discountCode", { token: admin, query: { id: random.body.data.id } });
    expect(gone.status).toBe(404);
    expect(await auditActions("discountCode.create")).toBe(2);
    expect(await auditActions("discountCode.delete")).toBe(1);
  });

  it("refuses an expired, unknown or used-up code with 400 on `code`, and bad fields on creation", async () => {
    const plan = await makePlan(t, { monthly_fee: 1000 });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "ONCE", discount: 0.9, expire_date: "2099-01-01", use_limit: 1, user_limit: 0 },
    });
    await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "OLD", discount: 0.9, expire_date: "2099-01-01" },
    });
    await t.db
      .updateTable("discount_codes")
      .set({ expire_date: new Date(Date.now() - 1000).toISOString() })
      .where("code", "=", "OLD")
      .execute();
    const a = await t.register();
    const b = await t.register();
    await giveBalance(t, a.uid, 5000);
    await giveBalance(t, b.uid, 5000);
    const order = { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 };
    expect((await t.api("POST", "/user/order", { token: a.token, body: { ...order, code: "ONCE" } })).body.code).toBe(
      "SUCCESS",
    );
    for (const [code, text] of [
      ["ONCE", "用完"],
      ["OLD", "过期"],
      ["NOPE", "不存在"],
    ]) {
      const r = await t.api("POST", "/user/order", { token: b.token, body: { ...order, code } });
      expect([code, r.status, r.body.code]).toEqual([code, 400, 10000]);
      expect(r.body.msg).toContain(text);
    }
    expect(await balanceOf(t, b.uid)).toBe(5000);
    for (const [body, field] of [
      [{ discount: 1, expire_date: "2099-01-01" }, "discount"],
      [{ discount: 0, expire_date: "2099-01-01" }, "discount"],
      [{ discount: 0.5, expire_date: "2000-01-01" }, "expire_date"],
      [{ discount: 0.5, expire_date: "tomorrow" }, "expire_date"],
      [{ discount: 0.5, expire_date: "2099-01-01", code: "a b" }, "code"],
      [{ discount: 0.5, expire_date: "2099-01-01", plan_ids: [999999] }, "plan_ids"],
    ] as const) {
      const r = await t.api("POST", "/super/discountCode", { token: admin, body });
      expect([field, r.status]).toEqual([field, 400]);
      expect(r.body.msg).toContain(field);
    }
  });
});

describe("gift cards", () => {
  it("numbers a batch by the Beijing time of its creation (GC + YYYYMMDDhhmmss in UTC+8)", async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 1, type: 1, card_value: 100, expire_date: "2099-12-31", one_user_limit: 1 },
    });
    const after = Date.now();
    const m = /^GC(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\d{4}$/.exec(r.body.data.batch_no);
    expect(m).not.toBeNull();
    const [, y, mo, d, h, mi, s] = (m as RegExpExecArray).map(Number);
    // The wall clock read as UTC, minus eight hours, is the instant of creation.
    const instant = Date.UTC(y, mo - 1, d, h, mi, s) - 8 * 3600_000;
    expect(instant).toBeGreaterThanOrEqual(before);
    expect(instant).toBeLessThanOrEqual(after);
  });

  it("generates a batch, lists by type and number, exports CSV, patches and deletes unused cards", async () => {
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 5, type: 1, card_value: 5000, expire_date: "2099-12-31", one_user_limit: 1 },
    });
    expect(r.body.code).toBe("SUCCESS");
    const { batch_no, card_numbers } = r.body.data;
    expect(card_numbers).toHaveLength(5);
    expect(new Set(card_numbers).size).toBe(5);
    for (const n of card_numbers) expect(n).toMatch(/^[A-Z2-9]{16}$/);
    const list = await t.api<Paged<GiftCardRow>>("GET", "/super/giftCard", {
      token: admin,
      query: { type: 1, size: 100 },
    });
    expect(list.body.data.list.filter((c) => c.batch_no === batch_no)).toHaveLength(5);
    const one = await t.api<Paged<GiftCardRow>>("GET", "/super/giftCard", {
      token: admin,
      query: { card_number: card_numbers[0].toLowerCase() },
    });
    expect(one.body.data.list).toHaveLength(1);
    expect(one.body.data.list[0]).toMatchObject({
      card_value: 5000,
      type: 1,
      used_uid: null,
      sub_time: null,
      one_user_limit: 1,
    });

    const csv = await t.app.inject({
      method: "GET",
      url: `/api/super/giftCard/export?batch_no=${batch_no}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toContain("attachment");
    const csvLines = (body: string) =>
      body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
    const lines = csvLines(csv.body);
    expect(lines[0]).toContain("卡号");
    expect(lines).toHaveLength(6);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(",")[0])
        .sort(),
    ).toEqual([...card_numbers].sort());
    expect(lines[1]).toContain("50.00");
    // The list's card-number filter applies to the export too.
    const oneCsv = await t.app.inject({
      method: "GET",
      url: `/api/super/giftCard/export?card_number=${card_numbers[0].toLowerCase()}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(
      csvLines(oneCsv.body)
        .slice(1)
        .map((l) => l.split(",")[0]),
    ).toEqual([card_numbers[0]]);
    const anon = await t.app.inject({ method: "GET", url: `/api/super/giftCard/export?batch_no=${batch_no}` });
    expect(anon.statusCode).toBe(401);

    const id = one.body.data.list[0].card_id;
    const patched = await t.api<GiftCardRow>("PATCH", "/super/giftCard", {
      token: admin,
      body: { card_id: id, card_value: 6000 },
    });
    expect(patched.body.data.card_value).toBe(6000);
    const del = await t.api<{ deleted: number }>("DELETE", "/super/giftCard", { token: admin, body: { card_id: id } });
    expect(del.body.data.deleted).toBe(1);
    const batchDel = await t.api<{ deleted: number }>("DELETE", "/super/giftCard", {
      token: admin,
      query: { batch_no },
    });
    expect(batchDel.body.data.deleted).toBe(4);
    expect(await auditActions("giftCard.export")).toBe(2);
    expect(await auditActions("giftCard.delete")).toBe(2);
  });

  it("validates generation: fields by type, count bounds, plan existence, future expiry", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ count: 1, type: 1, expire_date: "2099-01-01" }, "card_value"],
      [{ count: 1, type: 2, cycle_number: 1, expire_date: "2099-01-01" }, "plan_id"],
      [{ count: 1, type: 2, plan_id: 999999, cycle_number: 1, expire_date: "2099-01-01" }, "plan_id"],
      [{ count: 0, type: 1, card_value: 100, expire_date: "2099-01-01" }, "count"],
      [{ count: 1001, type: 1, card_value: 100, expire_date: "2099-01-01" }, "count"],
      [{ count: 1, type: 1, card_value: -100, expire_date: "2099-01-01" }, "card_value"],
      [{ count: 1, type: 1, card_value: 1.5, expire_date: "2099-01-01" }, "card_value"],
      [{ count: 1, type: 1, card_value: 100, expire_date: "2001-01-01" }, "expire_date"],
      [{ count: 1, type: 3, card_value: 100, expire_date: "2099-01-01" }, "type"],
    ];
    for (const [body, field] of cases) {
      const r = await t.api("POST", "/super/giftCard", { token: admin, body });
      expect([field, r.status, r.body.code]).toEqual([field, 400, 10000]);
      expect(r.body.msg).toContain(field);
    }
  });

  it("redeems a balance card once, and a second time gets a clear error", async () => {
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 3, type: 1, card_value: 2000, expire_date: "2099-12-31", one_user_limit: 1 },
    });
    const [c1, c2, c3] = r.body.data.card_numbers;
    const u = await t.register();
    const ok = await t.api<RedeemResult>("POST", "/user/giftCard/redeem", {
      token: u.token,
      body: { card_number: `${c1.slice(0, 4)}-${c1.slice(4).toLowerCase()}` },
    });
    expect(ok.body.data).toMatchObject({ type: 1, card_value: 2000, balance: 2000 });
    const twice = await t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: c1 } });
    expect([twice.status, twice.body.code]).toEqual([400, 10000]);
    expect(twice.body.msg).toContain("card_number");
    // one_user_limit 1: a second card of the same batch is refused by the business rule.
    const limit = await t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: c2 } });
    expect(limit.body.code).toBe(2001);
    expect(await balanceOf(t, u.uid)).toBe(2000);
    const other = await t.register();
    const race = await Promise.all(
      [other, await t.register()].map((x) =>
        t.api("POST", "/user/giftCard/redeem", { token: x.token, body: { card_number: c3 } }),
      ),
    );
    expect(race.map((x) => x.body.code).sort()).toEqual([10000, "SUCCESS"].sort());
    const unknown = await t.api("POST", "/user/giftCard/redeem", { token: u.token, body: { card_number: "NOPE" } });
    expect(unknown.body.code).toBe(10000);
    const card = await t.db
      .selectFrom("gift_cards")
      .selectAll()
      .where("card_number", "=", c1)
      .executeTakeFirstOrThrow();
    expect([card.used_uid, Boolean(card.sub_time)]).toEqual([u.uid, true]);
    const used = await t.api("DELETE", "/super/giftCard", { token: admin, body: { card_id: card.card_id } });
    expect(used.body.code).toBe(2001);
  });

  it("redeems a plan card by the subscription rules and refuses an expired card", async () => {
    const plan = await makePlan(t, { level: 2, monthly_fee: 1000, traffic: 20 });
    const r = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 2, type: 2, plan_id: plan.id, cycle_number: 3, expire_date: "2099-12-31", one_user_limit: 0 },
    });
    const u = await t.register();
    const ok = await t.api<RedeemResult>("POST", "/user/giftCard/redeem", {
      token: u.token,
      body: { card_number: r.body.data.card_numbers[0] },
    });
    expect(ok.body.data).toMatchObject({ type: 2, plan_name: plan.name, cycle_number: 3 });
    expect(ok.body.data.subscription).toMatchObject({ plan_id: plan.id, status: 1, traffic_quota: 60 * 1024 ** 3 });
    const end1 = ok.body.data.subscription?.end_at ?? "";
    const again = await t.api<RedeemResult>("POST", "/user/giftCard/redeem", {
      token: u.token,
      body: { card_number: r.body.data.card_numbers[1] },
    });
    expect(Date.parse(again.body.data.subscription?.end_at ?? "")).toBeGreaterThan(Date.parse(end1));
    expect((await subsOf(t, u.uid)).filter((s) => s.plan_id === plan.id)).toHaveLength(1);

    const expired = await t.api<CreatedGiftCards>("POST", "/super/giftCard", {
      token: admin,
      body: { count: 1, type: 1, card_value: 100, expire_date: "2099-12-31" },
    });
    await t.db
      .updateTable("gift_cards")
      .set({ expire_date: new Date(Date.now() - 1000).toISOString() })
      .where("batch_no", "=", expired.body.data.batch_no)
      .execute();
    const late = await t.api("POST", "/user/giftCard/redeem", {
      token: u.token,
      body: { card_number: expired.body.data.card_numbers[0] },
    });
    expect(late.body.code).toBe(10000);
    expect(late.body.msg).toContain("过期");
  });
});

describe("recharge promotions", () => {
  it("creates, lists, shows the running ones to customers, applies the best bonus, and deletes by query id", async () => {
    const mk = (body: Record<string, unknown>) =>
      t.api<RechargePromotionRow>("POST", "/super/discountRecharge", { token: admin, body });
    const small = await mk({
      name: "满50送5",
      min_amount: 5000,
      bonus: 500,
      start_at: "2020-01-01",
      end_at: "2099-12-31",
    });
    const big = await mk({
      name: "满200送30",
      min_amount: 20000,
      bonus: 3000,
      start_at: "2020-01-01",
      end_at: "2099-12-31",
    });
    const future = await mk({
      name: "未开始",
      min_amount: 100,
      bonus: 9999,
      start_at: "2098-01-01",
      end_at: "2099-12-31",
    });
    expect(small.body.data).toMatchObject({ min_amount: 5000, bonus: 500, active: true });
    expect(future.body.data.active).toBe(false);
    const bad = await mk({ min_amount: 100, bonus: 10, start_at: "2099-01-01", end_at: "2098-01-01" });
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("end_at");
    const neg = await mk({ min_amount: -100, bonus: 10, start_at: "2020-01-01", end_at: "2099-01-01" });
    expect(neg.body.msg).toContain("min_amount");

    const list = await t.api<Paged<RechargePromotionRow>>("GET", "/super/discountRecharge", { token: admin });
    expect(list.body.data.total).toBeGreaterThanOrEqual(3);
    const u = await t.register();
    const active = await t.api<RechargePromotionRow[]>("GET", "/user/discountRecharge", { token: u.token });
    const ids = active.body.data.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([small.body.data.id, big.body.data.id]));
    expect(ids).not.toContain(future.body.data.id);

    const q = await t.api<{ bonus: number; amount: number }>("POST", "/user/order/preview", {
      token: u.token,
      body: { type: 1, amount: 30000 },
    });
    expect(q.body.data).toMatchObject({ amount: 30000, bonus: 3000 });

    const del = await t.api("DELETE", "/super/discountRecharge", { token: admin, query: { id: future.body.data.id } });
    expect(del.body.code).toBe("SUCCESS");
    expect(
      (await t.api("DELETE", "/super/discountRecharge", { token: admin, query: { id: future.body.data.id } })).status,
    ).toBe(404);
    expect(await auditActions("discountRecharge.create")).toBe(3);
    expect(await auditActions("discountRecharge.delete")).toBe(1);
  });
});
