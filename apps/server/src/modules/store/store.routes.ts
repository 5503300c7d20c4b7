import { StoreApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { storeCatalog, storePlan } from "./store.service";

/** The customers' store (/user/plan); the operators' catalogue is the plans module's. */
export function storeRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, StoreApi.getUserPlan, ({ user, query }) => storeCatalog(ctx, user.uid, query.type));
  defineRoute(app, ctx, StoreApi.getUserPlanPlanID, ({ user, params }) => storePlan(ctx, user.uid, params.planID));
}
