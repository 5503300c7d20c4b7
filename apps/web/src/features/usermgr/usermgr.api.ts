import type { AdminUpdateUserBody, AdminUserListQuery } from "@burrow/contract";
import { UsermgrApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

/** List filters as the page holds them (everything optional but paging). */
export type UserListFilters = Partial<Omit<AdminUserListQuery, "page" | "size">> & { page: number; size: number };

export const usermgrKeys = {
  all: ["usermgr"] as const,
  lists: () => [...usermgrKeys.all, "list"] as const,
  list: (filters: UserListFilters) => [...usermgrKeys.lists(), filters] as const,
  details: () => [...usermgrKeys.all, "detail"] as const,
  detail: (uid: number) => [...usermgrKeys.details(), uid] as const,
  loginList: (uid: number, page: number, size: number) =>
    [...usermgrKeys.detail(uid), "loginList", { page, size }] as const,
};

/** GET /super/user/list */
export const userListQuery = (filters: UserListFilters) =>
  pagedListQuery(usermgrKeys.list(filters), UsermgrApi.getSuperUserList, filters);

/** GET /super/user/detail?uid= (profile and balance ledger) */
export const userDetailQuery = (uid: number) =>
  queryOptions({
    queryKey: usermgrKeys.detail(uid),
    queryFn: ({ signal }) => api.call(UsermgrApi.getSuperUserDetail, { query: { uid } }, { signal }),
  });

/** GET /super/user/loginList?uid&page&size */
export const userLoginListQuery = (uid: number, page: number, size: number) =>
  pagedListQuery(usermgrKeys.loginList(uid, page, size), UsermgrApi.getSuperUserLoginList, { uid, page, size });

/** PATCH /super/user/info: one change per call from the UI (nickname, role, status, balance, password). */
export const updateUser = (body: AdminUpdateUserBody) => api.call(UsermgrApi.patchSuperUserInfo, { body });
