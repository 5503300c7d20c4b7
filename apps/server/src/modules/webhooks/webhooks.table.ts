import type { Generated } from "kysely";

/** A customer's webhook endpoint (migration 2026-11-28T09-20). */
export interface WebhookEndpointTable {
  id: Generated<number>;
  uid: number;
  url: string;
  description: string;
  /** comma-separated WebhookEventType values */
  events: string;
  /** the signing secret, sealed (shared/secret-box.ts, bound to the row's uid) */
  secret: string;
  /** WebhookStatus */
  status: string;
  /** "manual" | "failures" while paused */
  paused_reason: string | null;
  paused_at: string | null;
  /** failed attempts in a row */
  failure_streak: number;
  /** the first failure of the current streak (the "a day of failures" rule) */
  first_failure_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One delivery of one payload to one endpoint: the queue and the log. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  uid: number;
  dedupe_key: string | null;
  event_id: string;
  event_type: string;
  /** the exact JSON posted (signed as is) */
  body: string;
  /** WebhookDeliveryStatus */
  status: string;
  attempts: number;
  next_at: string | null;
  /** a worker's claim: another worker leaves the row alone until then */
  lease_until: string | null;
  response_code: number | null;
  response_excerpt: string | null;
  error: string | null;
  duration_ms: number | null;
  last_attempt_at: string | null;
  redelivery_of: number | null;
  created_at: string;
}

/** Owned by the webhooks module. */
export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
}
