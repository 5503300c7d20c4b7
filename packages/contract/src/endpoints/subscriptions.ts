import { pagedAnswer } from "../answers";
import { PlanRegRowAnswer, SubscriptionListAnswer } from "../answers/subscriptions";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { PlanRegQuery, type PlanRegRow, type SubscriptionList, SubscriptionQuery } from "../subscriptions";

/** The subscriptions endpoints (see endpoint.ts). */
export const SubscriptionsApi = {
  getUserSubscription: endpoint<SubscriptionList>()({
    method: "GET",
    url: "/user/subscription",
    access: "user",
    scope: "billing:read",
    answer: SubscriptionListAnswer,
    summary: "plans and traffic packs, and what the customer may use now",
    query: SubscriptionQuery,
  }),
  getSuperPlanReg: endpoint<Paged<PlanRegRow>>()({
    method: "GET",
    url: "/super/plan/reg",
    access: "staff",
    answer: pagedAnswer(PlanRegRowAnswer),
    summary: "plan registrations (subscriptions), newest first",
    query: PlanRegQuery,
  }),
} as const;
