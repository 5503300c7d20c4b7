import { PlanRegQuery, SubscriptionQuery } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { listMySubscriptions, listPlanRegistrations } from "./subscriptions.service";

/** Subscriptions: the customer's own (/user/subscription) and the operators' registrations (/super/plan/reg). */
export function subscriptionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/subscription",
    access: "user",
    query: SubscriptionQuery,
    handler: ({ user, query }) => listMySubscriptions(ctx, user.uid, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/plan/reg",
    access: "staff",
    query: PlanRegQuery,
    handler: ({ query }) => listPlanRegistrations(ctx, query),
  });
}
