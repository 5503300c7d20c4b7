import {
  AdminOrderQuery,
  CreateOrderBody,
  LedgerQuery,
  OrderListQuery,
  PreviewOrderBody,
  RefundOrderBody,
  TradeIdParams,
  TradeIdQuery,
} from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { publicOrigin } from "../payments/epay";
import {
  cancelOrder,
  createOrder,
  getMyOrder,
  listMyOrders,
  listOrders,
  myLedger,
  orderDetail,
  previewOrder,
  refundOrder,
} from "./orders.service";

/** Orders and the balance ledger: the customer's checkout and history, the operators' order desk. */
export function ordersRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/order/preview",
    access: "user",
    body: PreviewOrderBody,
    handler: ({ user, body }) => previewOrder(ctx, user.uid, body),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/order",
    access: "user",
    body: CreateOrderBody,
    handler: ({ user, body, req }) => createOrder(ctx, user.uid, body, publicOrigin(ctx.config, req)),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/order",
    access: "user",
    query: OrderListQuery,
    handler: ({ user, query }) => listMyOrders(ctx, user.uid, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/order/:tradeID",
    access: "user",
    params: TradeIdParams,
    handler: ({ user, params }) => getMyOrder(ctx, user.uid, params.tradeID),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/order/:tradeID/cancel",
    access: "user",
    params: TradeIdParams,
    handler: ({ user, params }) => cancelOrder(ctx, user.uid, params.tradeID),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/ledger",
    access: "user",
    query: LedgerQuery,
    handler: ({ user, query }) => myLedger(ctx, user.uid, query),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/epay/order",
    access: "staff",
    query: AdminOrderQuery,
    handler: ({ query }) => listOrders(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/epay/order/detail",
    access: "staff",
    query: TradeIdQuery,
    handler: ({ query }) => orderDetail(ctx, query.trade_id),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/epay/order/refund",
    access: "manager",
    body: RefundOrderBody,
    handler: ({ body, user, req }) => refundOrder(ctx, { uid: user.uid, ip: req.ip }, body),
  });
}
