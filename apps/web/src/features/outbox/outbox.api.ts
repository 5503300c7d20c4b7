import type { OutboxDeliveryQuery } from "@burrow/contract";
import { OutboxApi } from "@burrow/contract";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export type OutboxFilters = Partial<OutboxDeliveryQuery> & { page: number; size: number };

export const outboxKeys = {
  all: ["outbox"] as const,
  list: (filters: OutboxFilters) => [...outboxKeys.all, "list", filters] as const,
};

/** GET /super/outbox/deliveries: event deliveries of one status (dead letters by default). */
export const outboxDeliveriesQuery = (filters: OutboxFilters) =>
  pagedListQuery(outboxKeys.list(filters), OutboxApi.getSuperOutboxDeliveries, filters);

/** POST /super/outbox/deliveries/:id/retry: due now, with a fresh set of attempts. */
export const retryDelivery = (id: number) => api.call(OutboxApi.postSuperOutboxRetry, { params: { id } });
