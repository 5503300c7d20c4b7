import { z } from "zod";
import { int } from "../answers";
import { SetupItemKeys } from "../users";

/* Answers of the operator overview's endpoints. */

export const ViewInfoAnswer = z.strictObject({
  users_total: int(),
  users_today: int(),
  users_banned: int(),
  users_verified: int(),
  signups: z.array(z.strictObject({ date: z.string(), count: int() })).describe("last 30 days, Asia/Shanghai"),
  tunnels: z.strictObject({ total: int(), online: int() }),
  nodes: z.strictObject({
    online: int(),
    offline: int(),
    exception: int(),
    off_shelf: int(),
    attention: z.array(z.strictObject({ node_id: int(), name: z.string(), status: int() })),
  }),
  traffic: z.strictObject({ today: int(), month: int() }).describe("bytes, in + out"),
  revenue: z.strictObject({ today: int(), month: int(), today_recharge: int(), month_recharge: int() }).describe("fen"),
  waiting: z.array(z.strictObject({ key: z.string(), label: z.string(), path: z.string(), count: int() })),
  daily: z
    .array(z.strictObject({ date: z.string(), revenue: int(), recharge: int(), traffic: int(), signups: int() }))
    .describe("last 30 days, oldest first: revenue and recharge in fen, traffic in bytes"),
});

export const SetupChecklistAnswer = z.strictObject({
  items: z.array(
    z.strictObject({
      key: z.enum(SetupItemKeys),
      label: z.string(),
      done: z.boolean(),
      detail: z.string(),
      fix: z
        .union([z.strictObject({ page: z.string() }), z.strictObject({ env: z.array(z.string()), doc: z.string() })])
        .describe("a console page under /admin, or environment variables described in docs/deploy.md"),
      shown_at: z.string().optional(),
    }),
  ),
  done: z.boolean(),
  dismissed: z.boolean(),
  show: z.boolean(),
});
