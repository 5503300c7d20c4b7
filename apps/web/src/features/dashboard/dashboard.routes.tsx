import { pageRoute } from "@/lib/route-types";

export const dashboardRoutes = [
  pageRoute("dashboard", "控制台", () => import("./pages/DashboardPage"), "DashboardPage"),
];
