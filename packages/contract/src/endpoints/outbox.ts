import { pagedAnswer } from "../answers";
import { OutboxDeliveryAnswer } from "../answers/outbox";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { type OutboxDelivery, OutboxDeliveryParams, OutboxDeliveryQuery } from "../outbox";

/** Domain-event deliveries for operators (see endpoint.ts). */
export const OutboxApi = {
  getSuperOutboxDeliveries: endpoint<Paged<OutboxDelivery>>()({
    method: "GET",
    url: "/super/outbox/deliveries",
    access: "manager",
    answer: pagedAnswer(OutboxDeliveryAnswer),
    summary: "event deliveries by status (dead letters by default), newest first, with the last error and attempts",
    query: OutboxDeliveryQuery,
  }),
  postSuperOutboxRetry: endpoint<OutboxDelivery>()({
    method: "POST",
    url: "/super/outbox/deliveries/:id/retry",
    access: "manager",
    answer: OutboxDeliveryAnswer,
    summary: "runs a dead (or still pending) delivery again now, with a fresh set of attempts; audited",
    params: OutboxDeliveryParams,
  }),
} as const;
