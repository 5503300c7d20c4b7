import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the audit log (issue 34 §2). */

export const AuditRowAnswer = z.strictObject({
  id: int(),
  operator_uid: int().describe("0: the command line"),
  operator_name: z.string().describe('nickname, "" for the command line or a user gone'),
  operator_phone: z.string(),
  action: z.string(),
  action_label: z.string(),
  target: z.string().describe('"user:5"'),
  target_label: z.string().describe('"用户 #5"'),
  changes: z.array(
    z.strictObject({
      field: z.string(),
      label: z.string(),
      from: z.string().optional().describe("absent where the row did not record the old value"),
      to: z.string(),
    }),
  ),
  detail: z.string().describe("the row as recorded (JSON)"),
  ip: z.string(),
  created_at: time(),
});

export const AuditOperatorAnswer = z.strictObject({ uid: int(), name: z.string(), phone: z.string() });
