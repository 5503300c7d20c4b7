import { PlanIdBody, PlansApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createPlan, deletePlan, listAdminPlans, storeCatalog, storePlan, updatePlan } from "./plans.service";

/** The id of a DELETE, from the body (SPEC) or the query string (what some clients send). */
const _OptionalId = z.object({ id: z.coerce.number().int().min(1, "套餐无效").optional() }).optional();

/** Plans: the operators' catalogue (/super/plan) and the customers' store (/user/plan). */
export function plansRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, PlansApi.getUserPlan, ({ user, query }) => storeCatalog(ctx, user.uid, query.type));
  defineRoute(app, ctx, PlansApi.getUserPlanPlanID, ({ user, params }) => storePlan(ctx, user.uid, params.planID));

  defineRoute(app, ctx, PlansApi.getSuperPlan, ({ query }) => listAdminPlans(ctx, query));
  defineRoute(app, ctx, PlansApi.postSuperPlan, ({ body, operator }) => createPlan(ctx, operator, body));
  defineRoute(app, ctx, PlansApi.patchSuperPlan, ({ body, operator }) => updatePlan(ctx, operator, body));
  defineRoute(app, ctx, PlansApi.deleteSuperPlan, ({ body, query, operator }) => {
    const { id } = PlanIdBody.parse({ id: body?.id ?? query?.id });
    return deletePlan(ctx, operator, id);
  });
}
