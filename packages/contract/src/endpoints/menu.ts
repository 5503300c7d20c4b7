import { endpoint } from "../endpoint";
import type { MenuItem } from "../menu";

/** The menu endpoints (see endpoint.ts). */
export const MenuApi = {
  getUserRolemenu: endpoint<MenuItem[]>()({
    method: "GET",
    url: "/user/rolemenu",
    access: "user",
    summary: "the customer console's menu for the caller's role",
  }),
  getSuperRoleMenu: endpoint<MenuItem[]>()({
    method: "GET",
    url: "/super/roleMenu",
    access: "staff",
    summary: "the admin console's menu for the caller's role",
  }),
} as const;
