import { UsermgrApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const adminviewKeys = {
  all: ["adminview"] as const,
  info: () => [...adminviewKeys.all, "viewInfo"] as const,
};

/** GET /super/viewInfo: the operator overview (users, tunnels, nodes, traffic, revenue, waiting work, 30 days). */
export const viewInfoQuery = () =>
  queryOptions({
    queryKey: adminviewKeys.info(),
    queryFn: ({ signal }) => api.call(UsermgrApi.getSuperViewInfo, {}, { signal }),
  });

/** GET /super/setup: the set-up checklist (managers). */
export const setupQuery = () =>
  queryOptions({
    queryKey: [...adminviewKeys.all, "setup"] as const,
    queryFn: ({ signal }) => api.call(UsermgrApi.getSuperSetup, {}, { signal }),
  });

/** POST /super/setup: hide the checklist before it is done, or show it again. */
export const setSetupDismissed = (dismissed: boolean) => api.call(UsermgrApi.postSuperSetup, { body: { dismissed } });
