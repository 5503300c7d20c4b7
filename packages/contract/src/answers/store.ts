import { z } from "zod";
import { int, time } from "../answers";
import { PlanPeriodPriceAnswer } from "./plans";

/** Answers of the store endpoints (issue 34 §2; see answers.ts): the plans on sale as a customer sees them. */

export const StorePlanAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  tag: z.string(),
  simple_desc: z.string(),
  traffic: int().describe("GB per month"),
  type: int().describe("2 plan, 3 traffic pack"),
  level_id: int(),
  level_name: z.string().nullable(),
  level: int(),
  sort: int(),
  bandwidth: int().describe("Mbps"),
  tunnel_limit: int(),
  tunnel_peer_port_limit: int(),
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
