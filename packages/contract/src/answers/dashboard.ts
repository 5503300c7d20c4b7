import { z } from "zod";
import { int, time } from "../answers";

/* Answers of the customer dashboard's endpoints. */

export const DashDataAnswer = z.strictObject({
  balance: int().describe("fen"),
  plan: z
    .strictObject({
      name: z.string(),
      end_at: time().nullable().describe("null: never expires (the free plan)"),
      traffic_quota: int().describe("bytes"),
      traffic_used: int().describe("bytes"),
      usable: z.boolean(),
      bandwidth: int().describe("Mbps"),
      tunnel_limit: int(),
    })
    .nullable(),
  tunnels: z.strictObject({ total: int(), online: int(), locked: int() }),
  today: z.strictObject({ traffic_in: int(), traffic_out: int() }).describe("bytes today, Asia/Shanghai"),
  checkin: z.strictObject({
    today: z.boolean().describe("already checked in today"),
    streak: int(),
    total_bonus: int().describe("bytes earned by check-ins in all"),
  }),
});

export const DashChartAnswer = z.strictObject({
  days: z
    .array(z.strictObject({ date: z.string(), traffic_in: int(), traffic_out: int() }))
    .describe("the last 7 days, Asia/Shanghai dates YYYY-MM-DD, oldest first, bytes"),
});

export const CheckInResultAnswer = z.strictObject({
  bonus_bytes: int().describe("bytes added to the current plan's quota"),
  streak: int(),
});
