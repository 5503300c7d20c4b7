import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths); /tun/list/add and /tun/list/:tunid fall under the /tun/list menu entry. */
export const tunnelsCustomerRoutes = [
  pageRoute("tun/list", "隧道列表", () => import("./pages/TunnelListPage"), "TunnelListPage"),
  pageRoute("tun/list/add", "创建隧道", () => import("./pages/TunnelCreatePage"), "TunnelCreatePage"),
  pageRoute("tun/list/:tunid", "隧道详情", () => import("./pages/TunnelDetailPage"), "TunnelDetailPage"),
];

/** Admin routes are relative to /admin. */
export const tunnelsAdminRoutes = [
  pageRoute("tun", "隧道管理", () => import("./pages/AdminTunnelListPage"), "AdminTunnelListPage"),
  pageRoute("tun/illegal", "违规隧道", () => import("./pages/IllegalTunnelPage"), "IllegalTunnelPage"),
];
