import type { Generated, Selectable } from "kysely";

export interface SubscriptionTable {
  id: Generated<number>;
  uid: number;
  plan_id: number;
  /** 2 plan, 3 traffic pack */
  kind: number;
  period: string | null;
  start_at: string;
  /** null: never expires (the free plan) */
  end_at: string | null;
  traffic_quota: number;
  traffic_used: Generated<number>;
  status: number;
  trade_id: string | null;
  created_at: string;
  /** fen paid for it over its life (purchase and extensions): the base of pro-rata upgrade credit */
  paid_amount: Generated<number>;
  /** fen it has given back: upgrade credit drawn from it, refunds paid from it (subscriptions/value.ts) */
  given_back: Generated<number>;
  /** bytes of traffic_quota given for free (check-in bonus, gift cards, 0-fen additions): not paid value */
  free_quota: Generated<number>;
  /** ms of its span given for free (gift-card months, 0-fen additions): not paid value */
  free_ms: Generated<number>;
  /** the subscription that replaced this one (a paid plan the free plan, an upgrade its old plan); null otherwise */
  replaced_by: Generated<number | null>;
  /** bytes of unused free traffic (check-in bonus) this one passed on to `replaced_by` */
  carried_quota: Generated<number>;
}
export type SubscriptionRow = Selectable<SubscriptionTable>;

/** Owned by the subscriptions module. */
export interface SubscriptionTables {
  subscriptions: SubscriptionTable;
}
