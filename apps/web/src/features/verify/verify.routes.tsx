import { pageRoute } from "@/app/route-types";

export const verifyRoutes = [
  pageRoute("account/verify", "实名认证", () => import("./pages/VerifyPage"), "VerifyPage"),
  pageRoute("account/verify/:result", "实名认证结果", () => import("./pages/VerifyResultPage"), "VerifyResultPage"),
];
