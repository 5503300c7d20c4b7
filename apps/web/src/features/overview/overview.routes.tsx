import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const overviewRoutes = [pageRoute("view", "数据概览", () => import("./pages/OverviewPage"), "OverviewPage")];
