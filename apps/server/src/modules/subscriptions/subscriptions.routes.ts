import { SubscriptionsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { listMySubscriptions, listPlanRegistrations } from "./lists";

/** Subscriptions: the customer's own (/user/subscription) and the operators' registrations (/super/plan/reg). */
export function subscriptionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, SubscriptionsApi.getUserSubscription, ({ user, query }) =>
    listMySubscriptions(ctx, user.uid, query),
  );
  defineRoute(app, ctx, SubscriptionsApi.getSuperPlanReg, ({ query }) => listPlanRegistrations(ctx, query));
}
