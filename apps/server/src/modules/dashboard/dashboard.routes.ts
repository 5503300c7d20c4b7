import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { checkIn, dashChart, dashData } from "./dashboard.service";

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/dashData",
    access: "user",
    handler: ({ user }) => dashData(ctx, user.uid),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/dashChart",
    access: "user",
    handler: ({ user }) => dashChart(ctx, user.uid),
  });
  // SPEC §7 makes the check-in a GET; it is still a write, guarded to once a day.
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/checkIn",
    access: "user",
    handler: ({ user }) => checkIn(ctx, user.uid),
  });
}
