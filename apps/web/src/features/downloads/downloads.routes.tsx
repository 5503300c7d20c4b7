import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const downloadsCustomerRoutes = [
  pageRoute("download", "客户端下载", () => import("./pages/DownloadPage"), "DownloadPage"),
];

/** Admin routes are relative to /admin. */
export const downloadsAdminRoutes = [
  pageRoute("download", "客户端管理", () => import("./pages/AdminDownloadPage"), "AdminDownloadPage"),
];
