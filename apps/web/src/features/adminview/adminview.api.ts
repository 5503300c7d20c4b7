import { UsermgrApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const adminviewKeys = {
  all: ["adminview"] as const,
  info: () => [...adminviewKeys.all, "viewInfo"] as const,
};

/** GET /super/viewInfo: user totals and 30 days of sign-ups. */
export const viewInfoQuery = () =>
  queryOptions({
    queryKey: adminviewKeys.info(),
    queryFn: ({ signal }) => api.call(UsermgrApi.getSuperViewInfo, {}, { signal }),
  });
