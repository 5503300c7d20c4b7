import { pageRoute } from "@/lib/route-types";

/** The customer's page (relative to "/"). */
export const leavingCustomerRoutes = [
  pageRoute("account/leaving", "数据导出与注销", () => import("./pages/LeavingPage"), "LeavingPage"),
];

/** Admin routes are relative to /admin. */
export const leavingAdminRoutes = [
  pageRoute("leaving", "账号注销", () => import("./pages/DeletionListPage"), "DeletionListPage"),
];
