import type { CreateHomeConfigBody, HomeConfigListQuery, UpdateHomeConfigBody } from "@burrow/contract";
import { HomeApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export type HomeConfigFilters = Partial<Omit<HomeConfigListQuery, "page" | "size">> & { page: number; size: number };

export const homeKeys = {
  all: ["home"] as const,
  user: () => [...homeKeys.all, "user"] as const,
  admin: (f: HomeConfigFilters) => [...homeKeys.all, "admin", f] as const,
};

/** GET /user/home: the dashboard's carousel, notices and quote */
export const userHomeQuery = () =>
  queryOptions({
    queryKey: homeKeys.user(),
    queryFn: ({ signal }) => api.call(HomeApi.getUserHome, {}, { signal }),
    staleTime: 60_000,
  });

/** GET /super/config/index */
export const adminHomeConfigQuery = (filters: HomeConfigFilters) =>
  pagedListQuery(homeKeys.admin(filters), HomeApi.getSuperConfigIndex, filters);

/** POST /super/config/index */
export const createHomeConfig = (body: CreateHomeConfigBody) => api.call(HomeApi.postSuperConfigIndex, { body });
/** PATCH /super/config/index: id plus the changed fields in param */
export const updateHomeConfig = (body: UpdateHomeConfigBody) => api.call(HomeApi.patchSuperConfigIndex, { body });
/** DELETE /super/config/index */
export const deleteHomeConfig = (id: number) => api.call(HomeApi.deleteSuperConfigIndex, { body: { id } });
