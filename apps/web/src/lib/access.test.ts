import type { MenuItem } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { ADMIN_BASE, accessOf, canAccessPath, groupKey, menuKeyOf, openKeysFor } from "./access";

const customerMenu: MenuItem[] = [
  { name: "控制台", id: "dashboard", path: "/dashboard", icon: "home" },
  {
    name: "账户",
    id: "account",
    path: "",
    icon: "account",
    children: [
      { name: "个人中心", id: "account-info", path: "/account/info", icon: "user" },
      { name: "实名认证", id: "account-verify", path: "/account/verify", icon: "verify" },
    ],
  },
];

const adminMenu: MenuItem[] = [
  { name: "数据概览", id: "view", path: "/view", icon: "home" },
  { name: "用户管理", id: "users", path: "/usermgr/list", icon: "group" },
  { name: "审计日志", id: "audit", path: "/audit", icon: "article" },
  { name: "返回控制台", id: "dash", path: "/dash", icon: "gobackLine" },
];

describe("menuKeyOf", () => {
  it("keeps two segments and drops the trailing slash", () => {
    expect(menuKeyOf("/account/info/")).toBe("/account/info");
    expect(menuKeyOf("/tun/list/42")).toBe("/tun/list");
    expect(menuKeyOf("/dashboard")).toBe("/dashboard");
    expect(menuKeyOf("/")).toBe("/");
  });

  it("strips the admin base", () => {
    expect(menuKeyOf("/admin/usermgr/list/7", ADMIN_BASE)).toBe("/usermgr/list");
    expect(menuKeyOf("/admin/view", ADMIN_BASE)).toBe("/view");
    expect(menuKeyOf("/admin", ADMIN_BASE)).toBe("/");
    // only a whole segment is a base
    expect(menuKeyOf("/administrator/x", ADMIN_BASE)).toBe("/administrator/x");
  });
});

describe("canAccessPath", () => {
  it("allows paths in the customer menu, including nested ones", () => {
    expect(canAccessPath(customerMenu, "/dashboard")).toBe(true);
    expect(canAccessPath(customerMenu, "/account/info")).toBe(true);
    expect(canAccessPath(customerMenu, "/account/verify/success")).toBe(true);
  });

  it("refuses paths outside the menu", () => {
    expect(canAccessPath(customerMenu, "/tun/list")).toBe(false);
    expect(canAccessPath(customerMenu, "/account")).toBe(false);
    expect(canAccessPath([], "/dashboard")).toBe(false);
  });

  it("checks admin paths relative to /admin", () => {
    expect(canAccessPath(adminMenu, "/admin/usermgr/list/12", ADMIN_BASE)).toBe(true);
    expect(canAccessPath(adminMenu, "/admin/audit", ADMIN_BASE)).toBe(true);
    expect(canAccessPath(adminMenu, "/admin/node", ADMIN_BASE)).toBe(false);
    expect(canAccessPath(adminMenu, "/usermgr/list", ADMIN_BASE)).toBe(true);
  });
});

describe("openKeysFor", () => {
  it("opens the submenu holding the selected entry", () => {
    expect(openKeysFor(customerMenu, "/account/info")).toEqual([groupKey(customerMenu[1])]);
  });

  it("opens nothing for top-level or unknown entries", () => {
    expect(openKeysFor(customerMenu, "/dashboard")).toEqual([]);
    expect(openKeysFor(customerMenu, "/nope")).toEqual([]);
  });
});

describe("accessOf", () => {
  it("lets staff into the admin area and only managers change users or write", () => {
    expect(accessOf({ role: 1 })).toEqual({ canEnterAdmin: false, canManageUsers: false, canWrite: false });
    expect(accessOf({ role: 2 })).toEqual({ canEnterAdmin: true, canManageUsers: false, canWrite: false });
    expect(accessOf({ role: 3 })).toEqual({ canEnterAdmin: true, canManageUsers: true, canWrite: true });
    expect(accessOf(undefined)).toEqual({ canEnterAdmin: false, canManageUsers: false, canWrite: false });
  });
});
