import type { SubscriptionQuery } from "@burrow/contract";
import { SubscriptionsApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

/** Subscription filters as the page holds them. */
export type SubscriptionFilters = Partial<Omit<SubscriptionQuery, "page" | "size">> & { page: number; size: number };

/** The customer's own subscriptions (the operator's registrations list lives with orders). */
export const subscriptionsKeys = {
  all: ["subscriptions"] as const,
  mine: (filters: SubscriptionFilters) => [...subscriptionsKeys.all, "mine", filters] as const,
};

/** GET /user/subscription: plans and traffic packs, and what the customer may use now. */
export const subscriptionsQuery = (filters: SubscriptionFilters) =>
  queryOptions({
    queryKey: subscriptionsKeys.mine(filters),
    queryFn: ({ signal }) => api.call(SubscriptionsApi.getUserSubscription, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
    // Traffic and refunds change it from elsewhere: always fresh on opening the page.
    staleTime: 0,
  });
