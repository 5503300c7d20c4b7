import type { RouteObject } from "react-router";
import { lazyComponent, pageRoute, type RouteHandle } from "@/lib/route-types";

/** /callback/auth: standalone (outside both layouts), for anyone back from a provider. */
export const oidcCallbackRoute: RouteObject = {
  path: "/callback/auth",
  handle: { title: "第三方登录" } satisfies RouteHandle,
  lazy: lazyComponent(() => import("./pages/OidcCallbackPage"), "OidcCallbackPage"),
};

/** Admin routes are relative to /admin. */
export const oidcAdminRoutes = [
  pageRoute("oidc", "第三方登录", () => import("./pages/AdminOidcPage"), "AdminOidcPage"),
];
