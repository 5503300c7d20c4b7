import { OrdersApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { checkDiscountCode } from "./check-code";
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
  defineRoute(app, ctx, OrdersApi.postUserDiscountCodeCheck, ({ body, user }) =>
    checkDiscountCode(ctx, user.uid, body),
  );
  defineRoute(app, ctx, OrdersApi.postUserOrderPreview, ({ user, body }) => previewOrder(ctx, user.uid, body));
  defineRoute(app, ctx, OrdersApi.postUserOrder, ({ user, body, operator }) =>
    createOrder(ctx, user.uid, body, { ip: operator.ip }),
  );
  defineRoute(app, ctx, OrdersApi.getUserOrder, ({ user, query }) => listMyOrders(ctx, user.uid, query));
  defineRoute(app, ctx, OrdersApi.getUserOrderTradeID, ({ user, params }) => getMyOrder(ctx, user.uid, params.tradeID));
  defineRoute(app, ctx, OrdersApi.postUserOrderTradeIDCancel, ({ user, params }) =>
    cancelOrder(ctx, user.uid, params.tradeID),
  );
  defineRoute(app, ctx, OrdersApi.getUserLedger, ({ user, query }) => myLedger(ctx, user.uid, query));

  defineRoute(app, ctx, OrdersApi.getSuperEpayOrder, ({ query }) => listOrders(ctx, query));
  defineRoute(app, ctx, OrdersApi.getSuperEpayOrderDetail, ({ query }) => orderDetail(ctx, query.trade_id));
  defineRoute(app, ctx, OrdersApi.postSuperEpayOrderRefund, ({ body, operator }) => refundOrder(ctx, operator, body));
}
