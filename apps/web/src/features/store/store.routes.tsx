import { pageRoute } from "@/lib/route-types";

/**
 * Customer routes: the store and its checkout (/purchase/plan/:planID is in the menu as
 * /purchase/plan), and recharging the balance.
 */
export const storeRoutes = [
  pageRoute("purchase/plan", "购买套餐", () => import("./pages/StorePage"), "StorePage"),
  pageRoute("purchase/plan/:planID", "确认订单", () => import("./pages/CheckoutPage"), "CheckoutPage"),
  pageRoute("epay/recharge", "余额充值", () => import("./pages/RechargePage"), "RechargePage"),
];
