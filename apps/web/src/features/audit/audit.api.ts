import type { AuditQuery } from "@burrow/contract";
import { AuditApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

/** Audit filters as the page holds them. */
export type AuditFilters = Partial<AuditQuery> & { page: number; size: number };

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, "list", filters] as const,
  operators: () => [...auditKeys.all, "operators"] as const,
};

/** GET /super/audit: every admin write, newest first, named and readable. */
export const auditListQuery = (filters: AuditFilters) =>
  pagedListQuery(auditKeys.list(filters), AuditApi.getSuperAudit, filters);

/** GET /super/audit/operators: who wrote the log, for the operator filter. */
export const auditOperatorsQuery = () =>
  queryOptions({
    queryKey: auditKeys.operators(),
    queryFn: ({ signal }) => api.call(AuditApi.getSuperAuditOperators, {}, { signal }),
  });
