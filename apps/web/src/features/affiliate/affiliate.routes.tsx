import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const affiliateCustomerRoutes = [
  pageRoute("aff/count", "推广统计", () => import("./pages/AffCountPage"), "AffCountPage"),
  pageRoute("aff/rebate", "返利提现", () => import("./pages/AffRebatePage"), "AffRebatePage"),
];

/** Admin routes are relative to /admin. */
export const affiliateAdminRoutes = [
  pageRoute("withdrawal", "提现管理", () => import("./pages/WithdrawalPage"), "WithdrawalPage"),
];
