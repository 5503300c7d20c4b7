import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const invoicesCustomerRoutes = [
  pageRoute("invoice", "发票", () => import("./pages/InvoicePage"), "InvoicePage"),
];

/** Admin routes are relative to /admin. */
export const invoicesAdminRoutes = [
  pageRoute("invoice/list", "发票管理", () => import("./pages/AdminInvoiceListPage"), "AdminInvoiceListPage"),
];
