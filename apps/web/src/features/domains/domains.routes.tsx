import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const domainsCustomerRoutes = [
  pageRoute("domain", "我的域名", () => import("./pages/DomainListPage"), "DomainListPage"),
];

/** Admin routes are relative to /admin. */
export const domainsAdminRoutes = [
  pageRoute("tun/domain", "域名管理", () => import("./pages/AdminDomainPage"), "AdminDomainPage"),
];
