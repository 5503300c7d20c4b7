import { DashboardApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { checkIn, dashChart, dashData } from "./dashboard.service";

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, DashboardApi.getUserDashData, ({ user }) => dashData(ctx, user.uid));
  defineRoute(app, ctx, DashboardApi.getUserDashChart, ({ user }) => dashChart(ctx, user.uid));
  // SPEC §7 makes the check-in a GET; it is still a write, guarded to once a day.
  defineRoute(app, ctx, DashboardApi.getUserCheckIn, ({ user }) => checkIn(ctx, user.uid));
}
