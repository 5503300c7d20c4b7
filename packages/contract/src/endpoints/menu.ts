import { z } from "zod";
import { MenuItemAnswer } from "../answers/menu";
import { endpoint } from "../endpoint";
import type { MenuItem } from "../menu";

/** The menu endpoints (see endpoint.ts). */
export const MenuApi = {
  getUserRolemenu: endpoint<MenuItem[]>()({
    method: "GET",
    url: "/user/rolemenu",
    access: "user",
    answer: z.array(MenuItemAnswer),
    summary: "the customer console's menu for the caller's role",
  }),
  getSuperRoleMenu: endpoint<MenuItem[]>()({
    method: "GET",
    url: "/super/roleMenu",
    access: "staff",
    answer: z.array(MenuItemAnswer),
    summary: "the admin console's menu for the caller's role",
  }),
} as const;
