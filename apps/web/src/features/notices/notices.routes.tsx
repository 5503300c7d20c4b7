import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths); Managers' operator notices are in the same list. */
export const noticesRoutes = [pageRoute("notices", "消息通知", () => import("./pages/NoticesPage"), "NoticesPage")];
