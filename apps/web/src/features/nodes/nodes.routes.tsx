import { pageRoute } from "@/lib/route-types";

/** Customer routes (absolute paths). */
export const nodesCustomerRoutes = [
  pageRoute("tun/node", "节点列表", () => import("./pages/UserNodeListPage"), "UserNodeListPage"),
];

/** Admin routes are relative to /admin. */
export const nodesAdminRoutes = [
  pageRoute("node", "节点管理", () => import("./pages/NodeListPage"), "NodeListPage"),
  pageRoute("area", "地区管理", () => import("./pages/AreaListPage"), "AreaListPage"),
  pageRoute("type", "网络类型", () => import("./pages/NetTypeListPage"), "NetTypeListPage"),
  pageRoute("level", "商店等级", () => import("./pages/LevelListPage"), "LevelListPage"),
];
