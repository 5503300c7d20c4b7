import { z } from "zod";
import { int, time } from "../answers";
import { AdminPlanAnswer, PlanPeriodPriceAnswer } from "./plans";

/** Answers of the store endpoints (issue 34 §2; see answers.ts): the plans on sale as a customer sees them. */

/** A plan on sale: the operator's view of its settings (no prices: the periods say them), and what buying it would do. */
export const StorePlanAnswer = AdminPlanAnswer.pick({
  id: true,
  name: true,
  tag: true,
  simple_desc: true,
  traffic: true,
  type: true,
  level_id: true,
  level_name: true,
  sort: true,
  bandwidth: true,
  tunnel_limit: true,
  tunnel_peer_port_limit: true,
}).extend({
  level: int(),
  periods: z.array(PlanPeriodPriceAnswer).describe("the periods on sale, monthly → annual"),
  purchase: z.enum(["new", "extend", "upgrade", "refused"]),
  purchase_note: z.string(),
});

export const StoreCatalogAnswer = z.strictObject({
  current: z
    .strictObject({
      subscription_id: int(),
      plan_id: int(),
      plan_name: z.string(),
      level: int(),
      free: z.boolean().describe("the free default plan"),
      end_at: time().nullable(),
      status: int().describe("-2 refunded, -1 expired, 1 in use, 2 over quota"),
    })
    .nullable(),
  levels: z.array(z.strictObject({ level_id: int(), name: z.string(), level: int(), plans: z.array(StorePlanAnswer) })),
});
