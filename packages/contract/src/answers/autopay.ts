import { z } from "zod";
import { int, time } from "../answers";
import { PlanPeriods } from "../enums";

/** Answers of the automatic-payment endpoints (issue 34 §2; see answers.ts). */

export const AutopayStateAnswer = z.strictObject({
  renewals: z.array(int()).describe("ids of the customer's subscriptions with auto-renewal on"),
  topup: z
    .strictObject({
      enabled: z.boolean(),
      plan_id: int(),
      plan_name: z.string().nullable().describe("null when the pack no longer exists"),
      period: z.enum(PlanPeriods),
      threshold: int().describe("% of the traffic left below which a pack is bought"),
      monthly_cap: int().describe("fen automatic top-ups may spend per calendar month"),
      below: z.boolean(),
      updated_at: time(),
    })
    .nullable(),
  month: z.string().describe("YYYY-MM, Asia/Shanghai"),
  spent_this_month: int().describe("fen"),
});
