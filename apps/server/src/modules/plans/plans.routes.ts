import {
  AdminPlanQuery,
  CreatePlanBody,
  PlanIdBody,
  PlanIdParams,
  StorePlanQuery,
  UpdatePlanBody,
} from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createPlan, deletePlan, listAdminPlans, storeCatalog, storePlan, updatePlan } from "./plans.service";

/** The id of a DELETE, from the body (SPEC) or the query string (what some clients send). */
const OptionalId = z.object({ id: z.coerce.number().int().min(1, "套餐无效").optional() }).optional();

/** Plans: the operators' catalogue (/super/plan) and the customers' store (/user/plan). */
export function plansRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/plan",
    access: "user",
    query: StorePlanQuery,
    handler: ({ user, query }) => storeCatalog(ctx, user.uid, query.type),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/plan/:planID",
    access: "user",
    params: PlanIdParams,
    handler: ({ user, params }) => storePlan(ctx, user.uid, params.planID),
  });

  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/plan",
    access: "manager",
    query: AdminPlanQuery,
    handler: ({ query }) => listAdminPlans(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/plan",
    access: "manager",
    body: CreatePlanBody,
    handler: ({ body, user, req }) => createPlan(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/plan",
    access: "manager",
    body: UpdatePlanBody,
    handler: ({ body, user, req }) => updatePlan(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/plan",
    access: "manager",
    body: OptionalId,
    query: OptionalId,
    handler: ({ body, query, user, req }) => {
      const { id } = PlanIdBody.parse({ id: body?.id ?? query?.id });
      return deletePlan(ctx, { uid: user.uid, ip: req.ip }, id);
    },
  });
}
