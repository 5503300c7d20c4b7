import { z } from "zod";
import { BalanceLedgerRowAnswer, int, OrderViewAnswer } from "../answers";
import { PlanPeriods } from "../enums";
import { StorePlanAnswer } from "./store";
import { SubscriptionViewAnswer } from "./subscriptions";

/** Answers of the orders endpoints (issue 34 §2; see answers.ts); OrderViewAnswer and the ledger row live there. */

export const OrderQuoteAnswer = z.strictObject({
  type: int().describe("1 balance recharge, 2 plan subscription, 3 traffic pack, 4 renewal"),
  action: z.enum(["recharge", "new", "extend", "upgrade", "pack", "renew"]),
  plan_id: int().nullable(),
  plan_name: z.string().nullable(),
  period: z.enum(PlanPeriods).nullable(),
  months: int().nullable(),
  fee: int().describe("fen, list price of the period (recharge: the amount)"),
  price: int().describe("fen, after the plan's fee discount"),
  code: z.string().nullable(),
  code_discount: int().describe("fen the promo code takes off"),
  upgrade_credit: int().describe("fen, unused value of the plan upgraded from"),
  credit_to_balance: int().describe("fen of upgrade_credit beyond the price, to the balance"),
  bonus: int().describe("fen, recharge promotion bonus"),
  amount: int().describe("fen the customer pays"),
  subscription_id: int().nullable(),
  replaces_subscription_id: int().nullable(),
  end_at: z.string().nullable().describe("ISO-8601 UTC: when the new or extended subscription will end"),
});

export const CreateOrderResultAnswer = z.strictObject({
  trade_id: z.string(),
  status: int().describe("1 paid, 2 awaiting payment"),
  amount: int().describe("fen"),
  pay_url: z.string().nullable().describe("null: paid with the balance"),
});

export const OrderDetailAnswer = OrderViewAnswer.extend({
  subscription: SubscriptionViewAnswer.nullable(),
  plan: StorePlanAnswer.nullable(),
  renewable: z.boolean(),
});

export const AdminOrderRowAnswer = OrderViewAnswer.extend({ uid: int(), phone: z.string() });

export const AdminOrderDetailAnswer = AdminOrderRowAnswer.extend({
  user: z.strictObject({ uid: int(), phone: z.string(), nickname: z.string(), balance: int().describe("fen") }),
  subscription: SubscriptionViewAnswer.nullable(),
  ledger: z.array(BalanceLedgerRowAnswer),
  refundable: z.boolean(),
  refund: z
    .strictObject({
      refundable: int().describe("fen, the default refund by the value model"),
      max_override: int().describe("fen, the most an operator override may pay"),
      reason: z.string(),
    })
    .nullable(),
});

export const RefundResultAnswer = z.strictObject({
  trade_id: z.string(),
  refunded: int().describe("fen credited to the balance"),
  override: z.boolean(),
  balance: int().describe("fen"),
});

export const DiscountCodeCheckAnswer = z.strictObject({
  code: z.string(),
  discount: z.number().describe("multiplier, 0.85 = 15 % off"),
  expire_date: z.string().describe("ISO-8601 UTC"),
  plan_ids: z.array(int()),
  quote: OrderQuoteAnswer.nullable(),
});
