import { pageRoute } from "@/app/route-types";

/** Admin routes are relative to /admin. */
export const ordersRoutes = [
  pageRoute("order", "订单管理", () => import("./pages/OrderListPage"), "OrderListPage"),
  pageRoute("order/reg", "套餐开通记录", () => import("./pages/PlanRegPage"), "PlanRegPage"),
];
