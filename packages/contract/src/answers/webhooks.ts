import { z } from "zod";
import { int, time } from "../answers";
import { WebhookEventTypes } from "../webhooks";

/* Answers of the customer's webhook endpoints and their delivery logs (issue 34 §2). */

export const WebhookViewAnswer = z.strictObject({
  id: int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WebhookEventTypes)),
  status: z.enum(["active", "paused"]),
  paused_reason: z.enum(["manual", "failures"]).nullable().describe("null while active"),
  paused_at: time().nullable(),
  failure_streak: int().describe("failed attempts in a row"),
  pending: int().describe("deliveries waiting to be sent (or retried)"),
  created_at: time(),
});

export const CreatedWebhookAnswer = WebhookViewAnswer.extend({
  secret: z.string().describe("the signing secret, answered this once"),
});

export const WebhookDeliveryViewAnswer = z.strictObject({
  id: int(),
  event_id: z.string().describe("evt_…, the same on every redelivery of one event"),
  event_type: z.string(),
  status: z.enum(["pending", "success", "failed", "dropped"]),
  attempts: int(),
  response_code: int().nullable().describe("the last attempt's HTTP status; null: no answer"),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: int().nullable(),
  next_at: time().nullable(),
  last_attempt_at: time().nullable(),
  created_at: time(),
  redelivery_of: int().nullable().describe("the delivery this one resends"),
});
