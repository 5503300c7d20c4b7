import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const plansRoutes = [pageRoute("plan", "套餐管理", () => import("./pages/PlanListPage"), "PlanListPage")];
