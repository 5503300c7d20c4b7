import type { AuditQuery } from "@burrow/contract";
import { AuditApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/api/client";

/** Audit filters as the page holds them. */
export type AuditFilters = Partial<z.infer<typeof AuditQuery>> & { page: number; size: number };

export const auditKeys = {
  all: ["audit"] as const,
  list: (filters: AuditFilters) => [...auditKeys.all, "list", filters] as const,
};

/** GET /super/audit: every admin write, newest first. */
export const auditListQuery = (filters: AuditFilters) =>
  queryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal }) => api.call(AuditApi.getSuperAudit, { query: filters }, { signal }),
    placeholderData: keepPreviousData,
  });
