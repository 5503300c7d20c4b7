import type { RouteObject } from "react-router";
import { lazyComponent, pageRoute, type RouteHandle } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const ordersRoutes = [
  pageRoute("order", "订单管理", () => import("./pages/OrderListPage"), "OrderListPage"),
  pageRoute("order/reg", "套餐开通记录", () => import("./pages/PlanRegPage"), "PlanRegPage"),
];

/** Customer routes (absolute paths): /epay/order is in the customer menu (我的订单). */
export const ordersCustomerRoutes = [
  pageRoute("epay/order", "我的订单", () => import("./pages/MyOrdersPage"), "MyOrdersPage"),
];

/** /result/pay: standalone (outside the console layout), for a signed-in customer back from the gateway. */
export const payResultRoute: RouteObject = {
  path: "/result/pay",
  handle: { title: "支付结果", access: "signedIn" } satisfies RouteHandle,
  lazy: lazyComponent(() => import("./pages/PayResultPage"), "PayResultPage"),
};
