import type { SubscriptionQuery } from "@burrow/contract";
import { MarketingApi, OrdersApi, SubscriptionsApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

/** Subscription filters as the page holds them. */
export type SubscriptionFilters = Partial<Omit<SubscriptionQuery, "page" | "size">> & { page: number; size: number };

export const epayKeys = {
  all: ["epay"] as const,
  ledger: (page: number, size: number) => [...epayKeys.all, "ledger", { page, size }] as const,
  subscriptions: (filters: SubscriptionFilters) => [...epayKeys.all, "subscriptions", filters] as const,
  order: (tradeId: string) => [...epayKeys.all, "order", tradeId] as const,
  rechargePromotions: () => [...epayKeys.all, "rechargePromotions"] as const,
};

/** GET /user/ledger: the balance ledger, newest first. */
export const ledgerQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: epayKeys.ledger(page, size),
    queryFn: ({ signal }) => api.call(OrdersApi.getUserLedger, { query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
    // Money moves from elsewhere too (gateway notifies, refunds): always fresh on opening the page.
    staleTime: 0,
  });

/** GET /user/subscription: plans and traffic packs, and what the customer may use now. */
export const subscriptionsQuery = (filters: SubscriptionFilters) =>
  queryOptions({
    queryKey: epayKeys.subscriptions(filters),
    queryFn: ({ signal }) => api.call(SubscriptionsApi.getUserSubscription, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
    // Traffic and refunds change it from elsewhere: always fresh on opening the page.
    staleTime: 0,
  });

/** GET /user/order/{tradeID}: one of the customer's orders, its subscription and the plan's periods. */
export const orderQuery = (tradeId: string) =>
  queryOptions({
    queryKey: epayKeys.order(tradeId),
    queryFn: ({ signal }) => api.call(OrdersApi.getUserOrderTradeID, { params: { tradeID: tradeId } }, { signal }),
  });

/** GET /user/discountRecharge: the recharge promotions running now. */
export const rechargePromotionsQuery = () =>
  queryOptions({
    queryKey: epayKeys.rechargePromotions(),
    queryFn: ({ signal }) => api.call(MarketingApi.getUserDiscountRecharge, {}, { signal }),
  });

/** POST /user/giftCard/redeem: 400/10000 on `card_number` saying why not. */
export const redeemGiftCard = (card_number: string) =>
  api.call(MarketingApi.postUserGiftCardRedeem, { body: { card_number } });

/** POST /user/order/{tradeID}/cancel: gives up an order that awaits payment (it closes, −1). */
export const cancelOrder = (tradeId: string) =>
  api.call(OrdersApi.postUserOrderTradeIDCancel, { params: { tradeID: tradeId } });
