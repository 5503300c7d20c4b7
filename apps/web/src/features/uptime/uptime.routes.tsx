import type { RouteObject } from "react-router";
import { lazyComponent, pageRoute, type RouteHandle } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const uptimeAdminRoutes = [
  pageRoute("maintenance", "维护计划", () => import("./pages/MaintenancePage"), "MaintenancePage"),
];

/** Public status pages: standalone (no login, no console layout; signed in or not). */
export const uptimePublicRoutes: RouteObject[] = [
  {
    path: "/status",
    handle: { title: "服务状态" } satisfies RouteHandle,
    lazy: lazyComponent(() => import("./pages/ProviderStatusPage"), "ProviderStatusPage"),
  },
  {
    path: "/status/t/:slug",
    handle: { title: "隧道状态" } satisfies RouteHandle,
    lazy: lazyComponent(() => import("./pages/PublicTunnelStatusPage"), "PublicTunnelStatusPage"),
  },
];
