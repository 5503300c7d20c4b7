import type { OutboxDeliveryQuery } from "@burrow/contract";
import { OutboxApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export type OutboxFilters = Partial<OutboxDeliveryQuery> & { page: number; size: number };

export const outboxKeys = {
  all: ["outbox"] as const,
  list: (filters: OutboxFilters) => [...outboxKeys.all, "list", filters] as const,
};

/** GET /super/outbox/deliveries: event deliveries of one status (dead letters by default). */
export const outboxDeliveriesQuery = (filters: OutboxFilters) =>
  queryOptions({
    queryKey: outboxKeys.list(filters),
    queryFn: ({ signal }) => api.call(OutboxApi.getSuperOutboxDeliveries, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
  });

/** POST /super/outbox/deliveries/:id/retry: due now, with a fresh set of attempts. */
export const retryDelivery = (id: number) => api.call(OutboxApi.postSuperOutboxRetry, { params: { id } });
