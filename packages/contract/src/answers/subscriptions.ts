import { z } from "zod";
import { int, time } from "../answers";
import { PlanPeriods } from "../enums";

/** Answers of the subscriptions endpoints (issue 34 §2; see answers.ts). Traffic is bytes. */

export const SubscriptionViewAnswer = z.strictObject({
  id: int(),
  plan_id: int(),
  plan_name: z.string(),
  kind: int().describe("2 plan, 3 traffic pack"),
  period: z.enum(PlanPeriods).nullable(),
  start_at: time(),
  end_at: time().nullable().describe("null: never ends (the free plan)"),
  traffic_quota: int().describe("bytes"),
  traffic_used: int().describe("bytes"),
  traffic_left: int().describe("bytes"),
  status: int().describe("-2 refunded, -1 expired, 1 in use, 2 over quota"),
  trade_id: z.string().nullable(),
  free: z.boolean(),
  free_quota: int().describe("bytes given free"),
  replaced_by: z.strictObject({ id: int(), plan_name: z.string() }).nullable(),
  carried_quota: int().describe("bytes moved to replaced_by"),
  renewable: z.boolean(),
  bandwidth: int().describe("Mbps"),
  tunnel_limit: int(),
  tunnel_peer_port_limit: int(),
  level_name: z.string().nullable(),
  created_at: time(),
});

export const PlanLimitsInfoAnswer = z.strictObject({
  plan_id: int(),
  plan_name: z.string(),
  level: int(),
  bandwidth: int().describe("Mbps; 0 = unlimited"),
  tunnel_limit: int(),
  tunnel_peer_port_limit: int(),
  traffic_quota: int().describe("bytes, plan plus traffic packs in use"),
  traffic_used: int().describe("bytes"),
  end_at: time().nullable(),
  usable: z.boolean(),
  reason: z.string().optional().describe("why not usable"),
});

export const SubscriptionListAnswer = z.strictObject({
  list: z.array(SubscriptionViewAnswer),
  total: int(),
  page: int(),
  size: int(),
  limits: PlanLimitsInfoAnswer.nullable(),
});

export const PlanRegRowAnswer = SubscriptionViewAnswer.extend({ uid: int(), phone: z.string() });
