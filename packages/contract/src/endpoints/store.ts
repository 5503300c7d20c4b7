import { StoreCatalogAnswer, StorePlanAnswer } from "../answers/store";
import { endpoint } from "../endpoint";
import { PlanIdParams, type StoreCatalog, type StorePlan, StorePlanQuery } from "../plans";

/** The store endpoints (see endpoint.ts): the plans on sale as a customer sees them. */
export const StoreApi = {
  getUserPlan: endpoint<StoreCatalog>()({
    method: "GET",
    url: "/user/plan",
    access: "user",
    answer: StoreCatalogAnswer,
    summary: "the plans on sale grouped by store level, and the customer's current plan",
    query: StorePlanQuery,
  }),
  getUserPlanPlanID: endpoint<StorePlan>()({
    method: "GET",
    url: "/user/plan/:planID",
    access: "user",
    answer: StorePlanAnswer,
    summary: "one plan with its periods and what buying it would do",
    params: PlanIdParams,
  }),
} as const;
