import {
  AdminWithdrawalQuery,
  type AdminWithdrawalRow,
  AffApproveBody,
  type AffSetting,
  AffSettingBody,
  type AffSummary,
  RebateQuery,
  type RebateRow,
  WithdrawalQuery,
  type WithdrawalRow,
  WithdrawBody,
} from "../affiliate";
import { pagedAnswer } from "../answers";
import {
  AdminWithdrawalRowAnswer,
  AffSettingAnswer,
  AffSummaryAnswer,
  RebateRowAnswer,
  WithdrawalRowAnswer,
} from "../answers/affiliate";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";

/** The affiliate programme: invite code, rebates, withdrawals (see endpoint.ts). */
export const AffiliateApi = {
  getUserAff: endpoint<AffSummary>()({
    method: "GET",
    url: "/user/aff",
    access: "user",
    answer: AffSummaryAnswer,
    summary: "my invite code, invitees, rebate totals (pending, available, withdrawn) and a 30-day chart",
  }),
  getUserAffRebate: endpoint<Paged<RebateRow>>()({
    method: "GET",
    url: "/user/aff/rebate",
    access: "user",
    answer: pagedAnswer(RebateRowAnswer),
    summary: "my rebates with their order and state, newest first",
    query: RebateQuery,
  }),
  getUserAffWithdraw: endpoint<Paged<WithdrawalRow>>()({
    method: "GET",
    url: "/user/aff/withdraw",
    access: "user",
    answer: pagedAnswer(WithdrawalRowAnswer),
    summary: "my withdrawal requests, newest first",
    query: WithdrawalQuery,
  }),
  postUserAffWithdraw: endpoint<WithdrawalRow>()({
    method: "POST",
    url: "/user/aff/withdraw",
    access: "user",
    answer: WithdrawalRowAnswer,
    summary:
      "withdraw available rebate to the balance (at once) or to an Alipay account or bank card (paid by an operator)",
    body: WithdrawBody,
  }),
  getSuperAffList: endpoint<Paged<AdminWithdrawalRow>>()({
    method: "GET",
    url: "/super/aff/list",
    access: "manager",
    answer: pagedAnswer(AdminWithdrawalRowAnswer),
    summary: "withdrawal requests with filters (status, uid, method, id, account), newest first",
    query: AdminWithdrawalQuery,
  }),
  postSuperAffApprove: endpoint<AdminWithdrawalRow>()({
    method: "POST",
    url: "/super/aff/approve",
    access: "manager",
    answer: AdminWithdrawalRowAnswer,
    summary:
      "approve a processing withdrawal (paid out by hand; the payout reference) or reject it with a reason (the amount returns to the available rebate)",
    body: AffApproveBody,
  }),
  getSuperAffSetting: endpoint<AffSetting>()({
    method: "GET",
    url: "/super/aff/setting",
    access: "manager",
    answer: AffSettingAnswer,
    summary: "the affiliate programme's rebate rate, holding period and minimum withdrawal",
  }),
  patchSuperAffSetting: endpoint<AffSetting>()({
    method: "PATCH",
    url: "/super/aff/setting",
    access: "manager",
    answer: AffSettingAnswer,
    summary: "change the rebate rate, holding period or minimum withdrawal (audited; applies to later orders)",
    body: AffSettingBody,
  }),
} as const;
