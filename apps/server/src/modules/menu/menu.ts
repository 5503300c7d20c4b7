import { type MenuItem, Role } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";

/** A menu entry with the roles that see it. Only pages that exist are listed (later features add theirs). */
export interface MenuDef extends Omit<MenuItem, "children"> {
  roles: number[];
  children?: MenuDef[];
}

const ALL = [Role.Customer, Role.Support, Role.Manager];
const STAFF = [Role.Support, Role.Manager];
const MANAGER = [Role.Manager];

/** The customer console's menu (paths are absolute). */
export const customerMenu: MenuDef[] = [
  { name: "仪表盘", id: "dashboard", path: "/dashboard", icon: "home", roles: ALL },
  { name: "个人中心", id: "account", path: "/account/info", icon: "account", roles: ALL },
  { name: "管理后台", id: "adm", path: "/adm", icon: "setting", roles: STAFF },
];

/** The admin console's menu (paths relative to /admin, as SPEC §2 lists them). */
export const adminMenu: MenuDef[] = [
  { name: "概览", id: "view", path: "/view", icon: "homeGear", roles: STAFF },
  { name: "用户管理", id: "usermgr", path: "/usermgr/list", icon: "user", roles: STAFF },
  { name: "审计日志", id: "audit", path: "/audit", icon: "article", roles: MANAGER },
  { name: "返回用户端", id: "dash", path: "/dash", icon: "gobackLine", roles: STAFF },
];

/** The items a role may see, without the role lists. */
export function menuFor(defs: MenuDef[], role: number): MenuItem[] {
  return defs
    .filter((d) => d.roles.includes(role))
    .map(({ roles: _roles, children, ...item }) => {
      const kids = children ? menuFor(children, role) : undefined;
      return kids?.length ? { ...item, children: kids } : item;
    });
}

export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/rolemenu",
    access: "user",
    handler: async ({ user }) => menuFor(customerMenu, user.role),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/roleMenu",
    access: "staff",
    handler: async ({ user }) => menuFor(adminMenu, user.role),
  });
}
