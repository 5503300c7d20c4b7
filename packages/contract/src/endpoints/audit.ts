import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import { AuditQuery, type AuditRow } from "../users";

/** The audit endpoints (see endpoint.ts). */
export const AuditApi = {
  getSuperAudit: endpoint<Paged<AuditRow>>()({
    method: "GET",
    url: "/super/audit",
    access: "manager",
    summary: "every admin write, newest first",
    query: AuditQuery,
  }),
} as const;
