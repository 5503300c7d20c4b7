import type { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import type { PlanPeriod } from "./enums";

/** Subscriptions: what a customer holds of plans and traffic packs. Traffic is bytes. */

// ---------------------------------------------------------------------------------------------
// Subscriptions

export interface SubscriptionView {
  id: number;
  plan_id: number;
  plan_name: string;
  /** 2 plan, 3 traffic pack */
  kind: number;
  period: PlanPeriod | null;
  start_at: string;
  /** null: never ends (the free plan) */
  end_at: string | null;
  /** bytes */
  traffic_quota: number;
  traffic_used: number;
  traffic_left: number;
  /** -2 refunded, -1 expired, 1 in use, 2 over quota */
  status: number;
  /** the order that opened it (renewal page key); null for the free plan and gift cards */
  trade_id: string | null;
  free: boolean;
  /** bytes of traffic_quota given free (check-in bonus, gift cards, free traffic carried over) */
  free_quota: number;
  /** the plan that replaced this one (the free plan by a paid plan, an upgrade); null otherwise */
  replaced_by: { id: number; plan_name: string } | null;
  /** bytes of its unused free traffic (check-in bonus) moved to `replaced_by` */
  carried_quota: number;
  renewable: boolean;
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  level_name: string | null;
  created_at: string;
}

/** What the customer's plan allows now (the frp plugin uses the same numbers). */
export interface PlanLimitsInfo {
  plan_id: number;
  plan_name: string;
  /** plan_levels.level (numeric rank) of the plan; a node needs plan level ≥ node level */
  level: number;
  /** Mbps; 0 = unlimited */
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  /** bytes, plan plus traffic packs in use */
  traffic_quota: number;
  traffic_used: number;
  /** the plan's end, null = never */
  end_at: string | null;
  /** false when the plan expired or every byte of quota is spent */
  usable: boolean;
  /** why not usable, for the frp plugin's reject_reason and the UI */
  reason?: string;
}

/** GET /user/subscription */
export const SubscriptionQuery = PageQuery.extend({ status: optionalInt(-2, 2), kind: optionalInt(2, 3) });
export type SubscriptionQuery = z.infer<typeof SubscriptionQuery>;

/** GET /user/subscription → data: the page, and the customer's limits now. */
export interface SubscriptionList {
  list: SubscriptionView[];
  total: number;
  page: number;
  size: number;
  limits: PlanLimitsInfo | null;
}

/** GET /super/plan/reg (plan registrations) */
export const PlanRegQuery = PageQuery.extend({
  user_id: optionalInt(1),
  local_trade_id: optionalText(40),
  kind: optionalInt(2, 3),
  status: optionalInt(-2, 2),
});
export type PlanRegQuery = z.infer<typeof PlanRegQuery>;

export interface PlanRegRow extends SubscriptionView {
  uid: number;
  phone: string;
}
