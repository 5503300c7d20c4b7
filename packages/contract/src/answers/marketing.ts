import { z } from "zod";
import { int, time } from "../answers";
import { SubscriptionViewAnswer } from "./subscriptions";

/** Answers of the marketing endpoints (issue 34 §2; see answers.ts): promo codes, gift cards, recharge promotions. */

export const DiscountCodeRowAnswer = z.strictObject({
  id: int(),
  code: z.string(),
  discount: z.number().describe("multiplier, 0.85 = 15 % off"),
  expire_date: time(),
  use_limit: int(),
  used_count: int().describe("uses by awaiting and paid orders"),
  user_limit: int(),
  plan_ids: z.array(int()),
  expired: z.boolean(),
  created_at: time(),
});

export const CreatedGiftCardsAnswer = z.strictObject({
  batch_no: z.string(),
  count: int(),
  card_numbers: z.array(z.string()),
});

export const GiftCardRowAnswer = z.strictObject({
  card_id: int(),
  card_number: z.string(),
  type: int().describe("1 balance, 2 plan"),
  card_value: int().describe("fen (type 1)"),
  plan_id: int().nullable(),
  plan_name: z.string().nullable(),
  cycle_number: int(),
  expire_date: time(),
  one_user_limit: int(),
  batch_no: z.string(),
  used_uid: int().nullable().describe("who redeemed it"),
  sub_time: time().nullable().describe("when it was redeemed"),
  created_at: time(),
});

export const DeletedCountAnswer = z.strictObject({ deleted: int() });

export const RedeemResultAnswer = z.strictObject({
  type: int().describe("1 balance, 2 plan"),
  card_value: int().describe("fen credited (type 1)"),
  plan_name: z.string().nullable(),
  cycle_number: int(),
  balance: int().describe("fen, afterwards"),
  subscription: SubscriptionViewAnswer.nullable(),
});

export const RechargePromotionRowAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  min_amount: int().describe("fen"),
  bonus: int().describe("fen"),
  start_at: time(),
  end_at: time(),
  active: z.boolean().describe("running now"),
  created_at: time(),
});
