import { OverviewApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const overviewKeys = {
  all: ["overview"] as const,
  info: () => [...overviewKeys.all, "viewInfo"] as const,
};

/** GET /super/viewInfo: the operator overview (users, tunnels, nodes, traffic, revenue, waiting work, 30 days). */
export const viewInfoQuery = () =>
  queryOptions({
    queryKey: overviewKeys.info(),
    queryFn: ({ signal }) => api.call(OverviewApi.getSuperViewInfo, {}, { signal }),
  });

/** GET /super/setup: the set-up checklist (managers). */
export const setupQuery = () =>
  queryOptions({
    queryKey: [...overviewKeys.all, "setup"] as const,
    queryFn: ({ signal }) => api.call(OverviewApi.getSuperSetup, {}, { signal }),
  });

/** POST /super/setup: hide the checklist before it is done, or show it again. */
export const setSetupDismissed = (dismissed: boolean) => api.call(OverviewApi.postSuperSetup, { body: { dismissed } });
