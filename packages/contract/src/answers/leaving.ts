import { z } from "zod";
import { int, time } from "../answers";
import { DeletionStatus } from "../leaving";

/* Answers of the leaving endpoints: the account's deletion (issue 34 §2). */

const DeletionStatusAnswer = z.enum(Object.values(DeletionStatus)).describe("pending (cooling-off), cancelled, done");

export const DeletionViewAnswer = z.strictObject({
  status: DeletionStatusAnswer,
  requested_at: time(),
  executes_at: time().describe("when the personal data is erased"),
  forfeit_fen: int().describe("fen given up (balance + affiliate earnings)"),
});

export const DeletionPrecheckAnswer = z.strictObject({
  balance: int().describe("fen"),
  affiliate_available: int().describe("fen"),
  totp: z.boolean().describe("the account has TOTP: a code (or recovery code) confirms the request"),
  passkey: z.boolean().describe("the account has a passkey: an assertion confirms the request"),
});

export const AdminDeletionRowAnswer = z.strictObject({
  id: int(),
  uid: int(),
  status: DeletionStatusAnswer,
  requested_at: time(),
  executes_at: time(),
  cancelled_at: time().nullable(),
  erased_at: time().nullable(),
  forfeit_fen: int().describe("fen"),
});
