import { z } from "zod";
import { int, time } from "../answers";
import { OutboxDeliveryStatus } from "../outbox";

/** Answers of the outbox endpoints (issue 34 §2; see answers.ts). */

export const OutboxDeliveryAnswer = z.strictObject({
  id: int(),
  event_id: int(),
  event_type: z.string(),
  event_label: z.string(),
  payload: z.string().describe("the event's payload, JSON"),
  uid: int().nullable(),
  handler: z.string(),
  status: z.enum(OutboxDeliveryStatus),
  attempts: int(),
  last_error: z.string().nullable(),
  next_at: time(),
  event_at: time(),
  updated_at: time(),
});
