import type { RouteObject } from "react-router";
import { lazyComponent, pageRoute, type RouteHandle } from "@/app/route-types";

/** Customer routes: recharge, my plans and renewals (/epay/plan/:tradeID is in the menu as /epay/plan). */
export const epayRoutes = [
  pageRoute("epay/recharge", "余额充值", () => import("./pages/RechargePage"), "RechargePage"),
  pageRoute("epay/plan", "我的套餐", () => import("./pages/MyPlansPage"), "MyPlansPage"),
  pageRoute("epay/plan/:tradeID", "套餐续费", () => import("./pages/RenewPage"), "RenewPage"),
];

/** /result/pay: standalone (outside the console layout), for a signed-in customer back from the gateway. */
export const payResultRoute: RouteObject = {
  path: "/result/pay",
  handle: { title: "支付结果", access: "signedIn" } satisfies RouteHandle,
  lazy: lazyComponent(() => import("./pages/PayResultPage"), "PayResultPage"),
};
