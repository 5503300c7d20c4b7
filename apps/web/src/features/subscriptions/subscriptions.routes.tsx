import { pageRoute } from "@/lib/route-types";

/** Customer routes: my plans and renewals (/epay/plan/:tradeID is in the menu as /epay/plan). */
export const subscriptionsRoutes = [
  pageRoute("epay/plan", "我的套餐", () => import("./pages/MyPlansPage"), "MyPlansPage"),
  pageRoute("epay/plan/:tradeID", "套餐续费", () => import("./pages/RenewPage"), "RenewPage"),
];
