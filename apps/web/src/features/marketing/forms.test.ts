import type { GiftCardRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { dayjs } from "@/lib/dayjs";
import {
  discountCodeBody,
  giftCardPatch,
  giftCardState,
  giftCardsBody,
  giftCardToForm,
  rechargePromotionBody,
} from "./forms";

const day = (s: string) => dayjs(s);

const card = (over: Partial<GiftCardRow>): GiftCardRow => ({
  card_id: 5,
  card_number: "ABCD1234EFGH5678",
  type: 1,
  card_value: 1000,
  plan_id: null,
  plan_name: null,
  cycle_number: 0,
  // 2030-12-31 23:59:59 in Shanghai
  expire_date: "2030-12-31T15:59:59.000Z",
  one_user_limit: 1,
  batch_no: "GC1",
  used_uid: null,
  sub_time: null,
  created_at: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("promo code form", () => {
  it("sends the day picked and lets a blank code be generated", () => {
    expect(
      discountCodeBody({
        code: "  ",
        discount: 0.8,
        expire_date: day("2030-12-31"),
        use_limit: 100,
        user_limit: 1,
        plan_ids: [3],
      }),
    ).toEqual({ discount: 0.8, expire_date: "2030-12-31", use_limit: 100, user_limit: 1, plan_ids: [3] });
    expect(
      discountCodeBody({
        code: "spring",
        discount: 0.9,
        expire_date: day("2030-01-01"),
        use_limit: null,
        user_limit: null,
      }),
    ).toMatchObject({ code: "spring", use_limit: 0, user_limit: 0, plan_ids: [] });
  });
});

describe("gift card forms", () => {
  it("sends a balance batch in fen and a plan batch with its months, each without the other's fields", () => {
    const common = { count: 10, expire_date: day("2030-12-31"), one_user_limit: 1 };
    expect(giftCardsBody({ ...common, type: 1, card_value: 12.34, plan_id: 2, cycle_number: 3 })).toEqual({
      count: 10,
      type: 1,
      card_value: 1234,
      expire_date: "2030-12-31",
      one_user_limit: 1,
    });
    expect(giftCardsBody({ ...common, type: 2, card_value: 5, plan_id: 2, cycle_number: 3 })).toEqual({
      count: 10,
      type: 2,
      plan_id: 2,
      cycle_number: 3,
      expire_date: "2030-12-31",
      one_user_limit: 1,
    });
  });

  it("edits a card in its own kind, showing its Shanghai expiry day", () => {
    const balance = card({});
    const form = giftCardToForm(balance);
    expect(form.card_value).toBe(10);
    expect(form.expire_date?.format("YYYY-MM-DD")).toBe("2030-12-31");
    expect(giftCardPatch(balance, { ...form, card_value: 20 })).toEqual({
      card_id: 5,
      card_value: 2000,
      expire_date: "2030-12-31",
      one_user_limit: 1,
    });
    const planCard = card({ type: 2, card_value: 0, plan_id: 4, plan_name: "标准版", cycle_number: 6 });
    expect(giftCardPatch(planCard, { ...giftCardToForm(planCard), cycle_number: 12 })).toEqual({
      card_id: 5,
      plan_id: 4,
      cycle_number: 12,
      expire_date: "2030-12-31",
      one_user_limit: 1,
    });
  });

  it("tells used, expired and unused cards apart", () => {
    const now = new Date("2031-01-01T00:00:00Z");
    expect(giftCardState(card({ used_uid: 9 }), now)).toBe("used");
    expect(giftCardState(card({}), now)).toBe("expired");
    expect(giftCardState(card({}), new Date("2030-12-31T15:00:00Z"))).toBe("unused");
  });
});

describe("recharge promotion form", () => {
  it("sends yuan as fen and the two days", () => {
    expect(
      rechargePromotionBody({
        name: " 开学季 ",
        min_amount: 100,
        bonus: 10.5,
        range: [day("2030-09-01"), day("2030-09-30")],
      }),
    ).toEqual({ name: "开学季", min_amount: 10000, bonus: 1050, start_at: "2030-09-01", end_at: "2030-09-30" });
  });
});
