import type { AdminWithdrawalQuery, AffApproveBody, AffSettingBody, WithdrawBody } from "@burrow/contract";
import { AffiliateApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

/** The operator's list filters as the URL holds them (the server validates the method). */
export type WithdrawalFilters = Partial<Omit<AdminWithdrawalQuery, "page" | "size" | "method">> & {
  method?: string;
  page: number;
  size: number;
};

export const affKeys = {
  all: ["affiliate"] as const,
  summary: () => [...affKeys.all, "summary"] as const,
  rebates: (page: number, size: number) => [...affKeys.all, "rebates", page, size] as const,
  withdrawals: (page: number, size: number) => [...affKeys.all, "withdrawals", page, size] as const,
  admin: (filters: WithdrawalFilters) => [...affKeys.all, "admin", filters] as const,
  setting: () => [...affKeys.all, "setting"] as const,
};

/** GET /user/aff: invite code, totals, 30-day chart */
export const affSummaryQuery = () =>
  queryOptions({
    queryKey: affKeys.summary(),
    queryFn: ({ signal }) => api.call(AffiliateApi.getUserAff, {}, { signal }),
    // Money that changes by others' actions (a friend's order, an operator's decision): fetched on each visit.
    staleTime: 0,
  });

/** GET /user/aff/rebate */
export const rebateListQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: affKeys.rebates(page, size),
    queryFn: ({ signal }) => api.call(AffiliateApi.getUserAffRebate, { query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** GET /user/aff/withdraw */
export const myWithdrawalsQuery = (page: number, size: number) =>
  queryOptions({
    queryKey: affKeys.withdrawals(page, size),
    queryFn: ({ signal }) => api.call(AffiliateApi.getUserAffWithdraw, { query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** POST /user/aff/withdraw */
export const requestWithdrawal = (body: z.input<typeof WithdrawBody>) =>
  api.call(AffiliateApi.postUserAffWithdraw, { body });

/** GET /super/aff/list */
export const adminWithdrawalsQuery = (filters: WithdrawalFilters) =>
  pagedListQuery(affKeys.admin(filters), AffiliateApi.getSuperAffList, filters);

/** POST /super/aff/approve */
export const decideWithdrawal = (body: z.input<typeof AffApproveBody>) =>
  api.call(AffiliateApi.postSuperAffApprove, { body });

/** GET /super/aff/setting */
export const affSettingQuery = () =>
  queryOptions({
    queryKey: affKeys.setting(),
    queryFn: ({ signal }) => api.call(AffiliateApi.getSuperAffSetting, {}, { signal }),
  });

/** PATCH /super/aff/setting */
export const updateAffSetting = (body: z.input<typeof AffSettingBody>) =>
  api.call(AffiliateApi.patchSuperAffSetting, { body });
