import { PlanIdBody, PlansApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createPlan, deletePlan, listAdminPlans, updatePlan } from "./plans.service";

/** Plans: the operators' catalogue (/super/plan); the customers' store is the store module's. */
export function plansRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, PlansApi.getSuperPlan, ({ query }) => listAdminPlans(ctx, query));
  defineRoute(app, ctx, PlansApi.postSuperPlan, ({ body, operator }) => createPlan(ctx, operator, body));
  defineRoute(app, ctx, PlansApi.patchSuperPlan, ({ body, operator }) => updatePlan(ctx, operator, body));
  defineRoute(app, ctx, PlansApi.deleteSuperPlan, ({ body, query, operator }) => {
    const { id } = PlanIdBody.parse({ id: body?.id ?? query?.id });
    return deletePlan(ctx, operator, id);
  });
}
