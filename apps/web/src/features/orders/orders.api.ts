import type { AdminOrderQuery, OrderListQuery, PlanRegQuery, RefundOrderBody } from "@burrow/contract";
import { OrdersApi, SubscriptionsApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";
import type { ListFilters } from "@/lib/url-filters";

export type OrderFilters = ListFilters<AdminOrderQuery>;
export type PlanRegFilters = ListFilters<PlanRegQuery>;
export type MyOrderFilters = ListFilters<OrderListQuery>;

export const ordersKeys = {
  all: ["orders"] as const,
  lists: () => [...ordersKeys.all, "list"] as const,
  list: (filters: OrderFilters) => [...ordersKeys.lists(), filters] as const,
  detail: (tradeId: string) => [...ordersKeys.all, "detail", tradeId] as const,
  regs: () => [...ordersKeys.all, "reg"] as const,
  reg: (filters: PlanRegFilters) => [...ordersKeys.regs(), filters] as const,
  /** the customer's own: one order, and the balance ledger */
  mine: (tradeId: string) => [...ordersKeys.all, "mine", tradeId] as const,
  ledger: (page: number, size: number) => [...ordersKeys.all, "ledger", { page, size }] as const,
  /** the customer's order list (/epay/order) */
  myLists: () => [...ordersKeys.all, "my"] as const,
  myList: (filters: MyOrderFilters) => [...ordersKeys.myLists(), filters] as const,
};

/** GET /super/epay/order: every order, newest first (SPEC §7 filters plus type and status). */
export const orderListQuery = (filters: OrderFilters) =>
  pagedListQuery(ordersKeys.list(filters), OrdersApi.getSuperEpayOrder, filters);

/** GET /super/epay/order/detail?trade_id: the order, its customer, subscription and ledger rows. */
export const orderDetailQuery = (tradeId: string) =>
  queryOptions({
    queryKey: ordersKeys.detail(tradeId),
    queryFn: ({ signal }) => api.call(OrdersApi.getSuperEpayOrderDetail, { query: { trade_id: tradeId } }, { signal }),
  });

/**
 * POST /super/epay/order/refund: what is left of what the purchase added goes back to the balance
 * (or, with amount + override_reason, an audited override); the subscription is taken back.
 */
export const refundOrder = (body: RefundOrderBody) => api.call(OrdersApi.postSuperEpayOrderRefund, { body });

/** GET /super/plan/reg: plan registrations (subscriptions), newest first. */
export const planRegListQuery = (filters: PlanRegFilters) =>
  pagedListQuery(ordersKeys.reg(filters), SubscriptionsApi.getSuperPlanReg, filters);

/** GET /user/order/{tradeID}: one of the customer's orders, its subscription and the plan's periods. */
export const myOrderQuery = (tradeId: string) =>
  queryOptions({
    queryKey: ordersKeys.mine(tradeId),
    queryFn: ({ signal }) => api.call(OrdersApi.getUserOrderTradeID, { params: { tradeID: tradeId } }, { signal }),
  });

/** GET /user/order: the customer's own orders of every type, newest first, by status and type. */
export const myOrdersQuery = (filters: MyOrderFilters) =>
  queryOptions({
    queryKey: ordersKeys.myList(filters),
    queryFn: ({ signal }) => api.call(OrdersApi.getUserOrder, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
    // An order awaiting payment is paid or closed elsewhere (the gateway, the 15-minute close).
    staleTime: 0,
  });

/** POST /user/order/{tradeID}/cancel: gives up an order that awaits payment (it closes, −1). */
export const cancelOrder = (tradeId: string) =>
  api.call(OrdersApi.postUserOrderTradeIDCancel, { params: { tradeID: tradeId } });

/** GET /user/ledger: the balance ledger, newest first. */
export const ledgerQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: ordersKeys.ledger(page, size),
    queryFn: ({ signal }) => api.call(OrdersApi.getUserLedger, { query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
    // Money moves from elsewhere too (gateway notifies, refunds): always fresh on opening the page.
    staleTime: 0,
  });
