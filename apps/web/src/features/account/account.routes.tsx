import { pageRoute } from "@/lib/route-types";

export const accountRoutes = [
  pageRoute("account/info", "个人中心", () => import("./pages/AccountInfoPage"), "AccountInfoPage"),
];
