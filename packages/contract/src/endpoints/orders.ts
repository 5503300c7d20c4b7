import { BalanceLedgerRowAnswer, OrderViewAnswer, pagedAnswer } from "../answers";
import {
  AdminOrderDetailAnswer,
  AdminOrderRowAnswer,
  CreateOrderResultAnswer,
  DiscountCodeCheckAnswer,
  OrderDetailAnswer,
  OrderQuoteAnswer,
  RefundResultAnswer,
} from "../answers/orders";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { CheckDiscountCodeBody, type DiscountCodeCheck } from "../marketing";
import {
  type AdminOrderDetail,
  AdminOrderQuery,
  type AdminOrderRow,
  CreateOrderBody,
  type CreateOrderResult,
  LedgerQuery,
  type OrderDetail,
  OrderListQuery,
  type OrderQuote,
  type OrderView,
  PreviewOrderBody,
  RefundOrderBody,
  type RefundResult,
  TradeIdParams,
  TradeIdQuery,
} from "../orders";
import type { BalanceLedgerRow } from "../users";

/** The orders endpoints (see endpoint.ts). */
export const OrdersApi = {
  postUserOrderPreview: endpoint<OrderQuote>()({
    method: "POST",
    url: "/user/order/preview",
    access: "user",
    answer: OrderQuoteAnswer,
    summary: "the price of an order now, nothing written (a read, so a query)",
    body: PreviewOrderBody,
  }),
  postUserOrder: endpoint<CreateOrderResult>()({
    method: "POST",
    url: "/user/order",
    access: "user",
    answer: CreateOrderResultAnswer,
    summary: "paid at once with the balance (pay_url null), or the gateway link to go to",
    body: CreateOrderBody,
  }),
  getUserOrder: endpoint<Paged<OrderView>>()({
    method: "GET",
    url: "/user/order",
    access: "user",
    scope: "billing:read",
    answer: pagedAnswer(OrderViewAnswer),
    summary: "the customer's own orders, newest first",
    query: OrderListQuery,
  }),
  getUserOrderTradeID: endpoint<OrderDetail>()({
    method: "GET",
    url: "/user/order/:tradeID",
    access: "user",
    scope: "billing:read",
    answer: OrderDetailAnswer,
    summary: "one of the customer's orders, its subscription and the plan's periods",
    params: TradeIdParams,
  }),
  postUserOrderTradeIDCancel: endpoint<OrderView>()({
    method: "POST",
    url: "/user/order/:tradeID/cancel",
    access: "user",
    answer: OrderViewAnswer,
    summary: "gives up an order that awaits payment (it closes, −1)",
    params: TradeIdParams,
  }),
  getUserLedger: endpoint<Paged<BalanceLedgerRow>>()({
    method: "GET",
    url: "/user/ledger",
    access: "user",
    scope: "billing:read",
    answer: pagedAnswer(BalanceLedgerRowAnswer),
    summary: "the balance ledger, newest first",
    query: LedgerQuery,
  }),
  getSuperEpayOrder: endpoint<Paged<AdminOrderRow>>()({
    method: "GET",
    url: "/super/epay/order",
    access: "staff",
    answer: pagedAnswer(AdminOrderRowAnswer),
    summary: "every order, newest first (SPEC §7 filters plus type and status)",
    query: AdminOrderQuery,
  }),
  getSuperEpayOrderDetail: endpoint<AdminOrderDetail>()({
    method: "GET",
    url: "/super/epay/order/detail",
    access: "staff",
    answer: AdminOrderDetailAnswer,
    summary: "the order, its customer, subscription and ledger rows",
    query: TradeIdQuery,
  }),
  postSuperEpayOrderRefund: endpoint<RefundResult>()({
    method: "POST",
    url: "/super/epay/order/refund",
    access: "manager",
    answer: RefundResultAnswer,
    summary: "what the purchase added goes back to the balance; the subscription is taken back",
    body: RefundOrderBody,
  }),
  postUserDiscountCodeCheck: endpoint<DiscountCodeCheck>()({
    method: "POST",
    url: "/user/discountCode/check",
    access: "user",
    answer: DiscountCodeCheckAnswer,
    summary: "400/10000 on `code` saying why it cannot be used",
    body: CheckDiscountCodeBody,
  }),
} as const;
