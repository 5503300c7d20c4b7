import { z } from "zod";
import { pagedAnswer } from "../answers";
import { AdminPlanAnswer, DeletePlanResultAnswer } from "../answers/plans";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { type AdminPlan, AdminPlanQuery, CreatePlanBody, type DeletePlanResult, UpdatePlanBody } from "../plans";

/** A DELETE's target, from the body (SPEC) or the query string (what some clients send). */
const OptionalId = z.object({ id: z.coerce.number().int().min(1, "套餐无效").optional() }).optional();

/** The plans endpoints (see endpoint.ts). */
export const PlansApi = {
  getSuperPlan: endpoint<Paged<AdminPlan>>()({
    method: "GET",
    url: "/super/plan",
    access: "manager",
    answer: pagedAnswer(AdminPlanAnswer),
    summary: "plans and traffic packs, by type, sort and id",
    query: AdminPlanQuery,
  }),
  postSuperPlan: endpoint<AdminPlan>()({
    method: "POST",
    url: "/super/plan",
    access: "manager",
    answer: AdminPlanAnswer,
    summary: "creates a plan or traffic pack",
    body: CreatePlanBody,
  }),
  patchSuperPlan: endpoint<AdminPlan>()({
    method: "PATCH",
    url: "/super/plan",
    access: "manager",
    answer: AdminPlanAnswer,
    summary: "changes a plan (id plus the fields to change)",
    body: UpdatePlanBody,
  }),
  deleteSuperPlan: endpoint<DeletePlanResult>()({
    method: "DELETE",
    url: "/super/plan",
    access: "manager",
    answer: DeletePlanResultAnswer,
    summary: "a plan anything refers to is taken off sale instead of deleted",
    body: OptionalId,
    query: OptionalId,
  }),
} as const;
