import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const ticketsCustomerRoutes = [
  pageRoute("help/ticket", "工单", () => import("./pages/TicketListPage"), "TicketListPage"),
  pageRoute("help/ticket/:ticketID", "工单详情", () => import("./pages/TicketDetailPage"), "TicketDetailPage"),
];

/** Admin routes are relative to /admin. */
export const ticketsAdminRoutes = [
  pageRoute("mgr/ticket", "工单管理", () => import("./pages/AdminTicketListPage"), "AdminTicketListPage"),
  pageRoute("mgr/ticket/:ticketID", "工单处理", () => import("./pages/AdminTicketDetailPage"), "AdminTicketDetailPage"),
];
