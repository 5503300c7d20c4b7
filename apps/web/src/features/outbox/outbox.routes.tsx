import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const outboxAdminRoutes = [pageRoute("outbox", "事件投递", () => import("./pages/OutboxPage"), "OutboxPage")];
