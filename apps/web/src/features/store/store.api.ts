import type { CheckDiscountCodeBody, CreateOrderBody, PreviewOrderBody } from "@burrow/contract";
import { ErrorCode, MarketingApi, OrdersApi, StoreApi } from "@burrow/contract";
import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { ApiError, api } from "@/api/client";
import { accountKeys } from "@/features/account/account.api";
import { ordersKeys } from "@/features/orders/orders.api";
import { subscriptionsKeys } from "@/features/subscriptions/subscriptions.api";

/** An order as the checkout sends it (the server fills in defaults such as pay_type). */
export type OrderInput = z.input<typeof CreateOrderBody>;
export type PreviewInput = z.input<typeof PreviewOrderBody>;

export const storeKeys = {
  all: ["store"] as const,
  catalog: () => [...storeKeys.all, "catalog"] as const,
  plan: (planId: number) => [...storeKeys.all, "plan", planId] as const,
  quote: (body: PreviewInput) => [...storeKeys.all, "quote", body] as const,
  rechargePromotions: () => [...storeKeys.all, "rechargePromotions"] as const,
};

/**
 * After money moved (a purchase, a payment seen, a gift card): refetch the balance, the store,
 * the customer's orders and ledger, and their subscriptions.
 */
export const refreshAfterPayment = (queryClient: QueryClient) =>
  Promise.all(
    [accountKeys.info(), storeKeys.all, ordersKeys.all, subscriptionsKeys.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );

/** GET /user/plan: the plans on sale grouped by store level, and the customer's current plan. */
export const catalogQuery = () =>
  queryOptions({
    queryKey: storeKeys.catalog(),
    queryFn: ({ signal }) => api.call(StoreApi.getUserPlan, {}, { signal }),
  });

/** GET /user/plan/{planID}: one plan with its periods and what buying it would do. */
export const storePlanQuery = (planId: number) =>
  queryOptions({
    queryKey: storeKeys.plan(planId),
    queryFn: ({ signal }) => api.call(StoreApi.getUserPlanPlanID, { params: { planID: planId } }, { signal }),
  });

/** POST /user/order/preview: the price of an order now, nothing written (a read, so a query). */
export const quoteQuery = (body: PreviewInput) =>
  queryOptions({
    queryKey: storeKeys.quote(body),
    queryFn: ({ signal }) => api.call(OrdersApi.postUserOrderPreview, { body }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** POST /user/discountCode/check: 400/10000 on `code` saying why it cannot be used. */
export const checkDiscountCode = (body: z.input<typeof CheckDiscountCodeBody>) =>
  api.call(OrdersApi.postUserDiscountCodeCheck, { body });

/** POST /user/order: paid at once with the balance (pay_url null), or the gateway link to go to. */
export const createOrder = (body: OrderInput) => api.call(OrdersApi.postUserOrder, { body });

/**
 * Whether a page's record does not exist (404, or an id the server rejects as malformed), as
 * opposed to a failure worth retrying.
 * @param error what the query rejected with
 */
export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.code === ErrorCode.InvalidParams);
}

/** GET /user/discountRecharge: the recharge promotions running now. */
export const rechargePromotionsQuery = () =>
  queryOptions({
    queryKey: storeKeys.rechargePromotions(),
    queryFn: ({ signal }) => api.call(MarketingApi.getUserDiscountRecharge, {}, { signal }),
  });

/** POST /user/giftCard/redeem: 400/10000 on `card_number` saying why not. */
export const redeemGiftCard = (card_number: string) =>
  api.call(MarketingApi.postUserGiftCardRedeem, { body: { card_number } });
