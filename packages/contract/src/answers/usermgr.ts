import { z } from "zod";
import { BalanceLedgerRowAnswer, int, time } from "../answers";

/* Answers of the operator's user management endpoints (issue 34 §2). */

export const AdminUserRowAnswer = z.strictObject({
  uid: int(),
  phone: z.string().describe("as shown to the operator"),
  nickname: z.string(),
  role: int().describe("1 customer, 2 support, 3 manager"),
  status: int().describe("1 active, -1 banned"),
  balance: int().describe("fen"),
  verify_status: int().describe("0 never, 1 verified, 2 processing, 3 rejected"),
  ban_reason: z.string().nullable(),
  created_at: time(),
  last_login_at: time().nullable(),
});

export const AdminUserDetailAnswer = AdminUserRowAnswer.extend({
  avatar: z.string(),
  invite_code: z.string(),
  referrer_uid: int().nullable(),
  real_name: z.string().nullable(),
  ledger: z.array(BalanceLedgerRowAnswer).describe("the latest 50 balance changes, newest first"),
});
