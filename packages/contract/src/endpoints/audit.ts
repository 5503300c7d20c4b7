import { z } from "zod";
import { pagedAnswer } from "../answers";
import { AuditOperatorAnswer, AuditRowAnswer } from "../answers/audit";
import { type AuditOperator, AuditQuery, type AuditRow } from "../audit";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";

/** The audit endpoints (see endpoint.ts). */
export const AuditApi = {
  getSuperAudit: endpoint<Paged<AuditRow>>()({
    method: "GET",
    url: "/super/audit",
    access: "manager",
    answer: pagedAnswer(AuditRowAnswer),
    summary:
      "every admin write, newest first, with its action named and its changes readable; filter by action and operator",
    query: AuditQuery,
  }),
  getSuperAuditOperators: endpoint<AuditOperator[]>()({
    method: "GET",
    url: "/super/audit/operators",
    access: "manager",
    answer: z.array(AuditOperatorAnswer),
    summary: "the operators who wrote audit rows (the log's operator filter)",
  }),
} as const;
