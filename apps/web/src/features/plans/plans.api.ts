import type { AdminPlanQuery, CreatePlanBody, UpdatePlanBody } from "@burrow/contract";
import { PlansApi } from "@burrow/contract";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

/** Plan filters as the page holds them. */
export type PlanFilters = Partial<Omit<AdminPlanQuery, "page" | "size">> & { page: number; size: number };

export const plansKeys = {
  all: ["plans"] as const,
  lists: () => [...plansKeys.all, "list"] as const,
  list: (filters: PlanFilters) => [...plansKeys.lists(), filters] as const,
};

/** GET /super/plan: plans and traffic packs, by type, sort and id. */
export const planListQuery = (filters: PlanFilters) =>
  pagedListQuery(plansKeys.list(filters), PlansApi.getSuperPlan, filters);

/** Every plan, for selects (promo code plans, gift card plans): the largest page the server serves. */
export const allPlansQuery = () => planListQuery({ page: 1, size: 100 });

/** POST /super/plan */
export const createPlan = (body: CreatePlanBody) => api.call(PlansApi.postSuperPlan, { body });
/** PATCH /super/plan: id plus the fields to change */
export const updatePlan = (body: UpdatePlanBody) => api.call(PlansApi.patchSuperPlan, { body });
/** DELETE /super/plan: a plan anything refers to is taken off sale instead of deleted */
export const deletePlan = (id: number) => api.call(PlansApi.deleteSuperPlan, { body: { id } });
