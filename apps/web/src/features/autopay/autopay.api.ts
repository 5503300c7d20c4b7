import { AutopayApi, type AutoRenewBody, StoreApi, type TopupRuleBody } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const autopayKeys = { all: ["autopay"] as const, packs: ["autopay", "packs"] as const };

/** GET /user/autopay: auto-renewal switches, the top-up rule and this month's automatic spend. */
export const autopayQuery = () =>
  queryOptions({
    queryKey: autopayKeys.all,
    queryFn: ({ signal }) => api.call(AutopayApi.getUserAutopay, {}, { signal }),
    staleTime: 0,
  });

/** The traffic packs on sale (the store's catalogue, type 3), for the top-up rule's choice. */
export const trafficPacksQuery = () =>
  queryOptions({
    queryKey: autopayKeys.packs,
    queryFn: async ({ signal }) => {
      const catalog = await api.call(StoreApi.getUserPlan, { query: { type: 3 } }, { signal });
      return catalog.levels.flatMap((l) => l.plans);
    },
  });

/** PUT /user/autopay/renewal */
export const setAutoRenew = (body: AutoRenewBody) => api.call(AutopayApi.putUserAutopayRenewal, { body });

/** PUT /user/autopay/topup: when on and traffic is already low, the server buys at once. */
export const saveTopupRule = (body: TopupRuleBody) => api.call(AutopayApi.putUserAutopayTopup, { body });
