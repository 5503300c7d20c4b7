import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const marketingRoutes = [
  pageRoute("market/code", "优惠码", () => import("./pages/DiscountCodePage"), "DiscountCodePage"),
  pageRoute("market/gift", "礼品卡", () => import("./pages/GiftCardPage"), "GiftCardPage"),
  pageRoute("market/recharge", "充值优惠", () => import("./pages/RechargePromotionPage"), "RechargePromotionPage"),
];
