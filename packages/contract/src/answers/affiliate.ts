import { z } from "zod";
import { WithdrawalSignalKinds, WithdrawMethods } from "../affiliate";
import { int, time } from "../answers";

/** Answers of the affiliate endpoints (issue 34 §2; see answers.ts): rebates and withdrawals, money in fen. */

export const AffSettingAnswer = z.strictObject({
  rate_bp: int().describe("rebate rate in basis points (1000 = 10 %)"),
  hold_days: int().describe("days a rebate stays pending"),
  min_withdraw: int().describe("fen, smallest withdrawal"),
});

export const AffSummaryAnswer = z.strictObject({
  invite_code: z.string(),
  invite_path: z.string().describe("/reg?invite=CODE, relative"),
  invited_count: int(),
  paid_orders: int(),
  pending: int().describe("fen in the holding period"),
  available: int().describe("fen withdrawable now; negative after a refund of a released rebate"),
  withdrawn: int().describe("fen paid out"),
  processing: int().describe("fen of external withdrawals waiting for the operator"),
  external_processing: z.boolean(),
  waiting_verification: int().describe("fen due but waiting for the invitee's verification"),
  verified_name: z.string().nullable().describe("masked; null while not verified"),
  setting: AffSettingAnswer,
  days: z.array(
    z.strictObject({
      date: z.string().describe("YYYY-MM-DD, Asia/Shanghai"),
      rebate: int().describe("fen"),
      invited: int(),
    }),
  ),
});

export const RebateRowAnswer = z.strictObject({
  id: int(),
  trade_id: z.string(),
  order_type: int().describe("1 recharge, 2 plan, 3 traffic pack, 4 renewal"),
  order_amount: int().describe("fen"),
  invitee: z.string().describe("masked phone"),
  rate_bp: int(),
  amount: int().describe("fen at payment"),
  reversed: int().describe("fen taken back by a refund"),
  state: int().describe("1 pending, 2 available, 3 reversed"),
  release_at: time(),
  released_at: time().nullable(),
  created_at: time(),
  pending_reason: z.string().nullable(),
});

export const WithdrawalRowAnswer = z.strictObject({
  id: int(),
  amount: int().describe("fen"),
  method: z.enum(WithdrawMethods),
  account: z.string().nullable().describe("masked for the customer"),
  account_name: z.string().nullable(),
  bank_name: z.string().nullable(),
  status: int().describe("1 done, 2 processing, 3 rejected"),
  payout_ref: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: time(),
  handled_at: time().nullable(),
});

export const AdminWithdrawalRowAnswer = WithdrawalRowAnswer.extend({
  uid: int(),
  phone: z.string(),
  available: int().describe("fen, the customer's available rebate now (may be negative)"),
  operator_uid: int().nullable(),
  verified_name: z.string().nullable(),
  name_matches: z.boolean().nullable(),
  name_check: z.enum(["exact", "masked"]).nullable(),
  signals: z.array(z.strictObject({ kind: z.enum(WithdrawalSignalKinds), detail: z.string() })),
});
