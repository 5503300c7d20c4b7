import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const auditRoutes = [pageRoute("audit", "审计日志", () => import("./pages/AuditPage"), "AuditPage")];
