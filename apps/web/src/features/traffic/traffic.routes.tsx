import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const trafficCustomerRoutes = [
  pageRoute("traffic", "流量统计", () => import("./pages/TrafficPage"), "TrafficPage"),
];

/** Admin routes are relative to /admin. */
export const trafficAdminRoutes = [
  pageRoute("tun/conns", "连接管理", () => import("./pages/ConnsPage"), "ConnsPage"),
  pageRoute("flow", "流量统计", () => import("./pages/FlowPage"), "FlowPage"),
];
