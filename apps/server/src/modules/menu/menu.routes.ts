import { MenuApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { adminMenu, customerMenu, menuFor } from "./menu";

export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, MenuApi.getUserRolemenu, async ({ user }) => menuFor(customerMenu, user.role));
  defineRoute(app, ctx, MenuApi.getSuperRoleMenu, async ({ user }) => menuFor(adminMenu, user.role));
}
