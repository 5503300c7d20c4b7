import { pageRoute } from "@/lib/route-types";

/** Public pages; they redirect to /dashboard when a token exists (PublicLayout). */
export const authRoutes = [
  pageRoute("login", "登录", () => import("./pages/LoginRoute"), "LoginRoute"),
  pageRoute("reg", "注册", () => import("./pages/RegisterPage"), "RegisterPage"),
  pageRoute("reset", "重置密码", () => import("./pages/ResetPage"), "ResetPage"),
  pageRoute("appeal", "封禁申诉", () => import("./pages/AppealPage"), "AppealPage"),
];
