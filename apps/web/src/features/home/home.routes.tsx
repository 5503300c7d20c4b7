import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const homeAdminRoutes = [
  pageRoute("setter/main", "首页内容", () => import("./pages/AdminHomeConfigPage"), "AdminHomeConfigPage"),
];
