import { pageRoute } from "@/lib/route-types";

/** Admin routes are relative to /admin. */
export const usermgrRoutes = [
  pageRoute("usermgr/list", "用户管理", () => import("./pages/UserListPage"), "UserListPage"),
  pageRoute("usermgr/list/:uid", "用户详情", () => import("./pages/UserDetailPage"), "UserDetailPage"),
];
