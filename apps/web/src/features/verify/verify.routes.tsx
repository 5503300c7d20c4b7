import { pageRoute } from "@/lib/route-types";

export const verifyRoutes = [
  pageRoute("account/verify", "实名认证", () => import("./pages/VerifyPage"), "VerifyPage"),
  pageRoute("account/verify/:result", "实名认证结果", () => import("./pages/VerifyResultPage"), "VerifyResultPage"),
];

/** Admin routes are relative to /admin. */
export const verifyAdminRoutes = [
  pageRoute("verify/list", "实名审核", () => import("./pages/AdminVerifyQueuePage"), "AdminVerifyQueuePage"),
  pageRoute("verify/list/:uid", "实名审核详情", () => import("./pages/AdminVerifyReviewPage"), "AdminVerifyReviewPage"),
];
