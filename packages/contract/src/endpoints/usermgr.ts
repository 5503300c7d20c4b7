import { pagedAnswer } from "../answers";
import { AdminUserDetailAnswer, AdminUserRowAnswer } from "../answers/usermgr";
import { LoginLogAnswer } from "../answers/users";
import type { Paged } from "../codes";
import { endpoint } from "../endpoint";
import {
  AdminUpdateUserBody,
  type AdminUserDetail,
  AdminUserListQuery,
  type AdminUserRow,
  LoginListQuery,
  type LoginLog,
  UidQuery,
} from "../users";

/** The usermgr endpoints (see endpoint.ts). */
export const UsermgrApi = {
  getSuperUserList: endpoint<Paged<AdminUserRow>>()({
    method: "GET",
    url: "/super/user/list",
    access: "staff",
    answer: pagedAnswer(AdminUserRowAnswer),
    summary: "customers and staff, paged and filtered",
    query: AdminUserListQuery,
  }),
  getSuperUserDetail: endpoint<AdminUserDetail>()({
    method: "GET",
    url: "/super/user/detail",
    access: "staff",
    answer: AdminUserDetailAnswer,
    summary: "a user's profile and balance ledger",
    query: UidQuery,
  }),
  getSuperUserLoginList: endpoint<Paged<LoginLog>>()({
    method: "GET",
    url: "/super/user/loginList",
    access: "staff",
    answer: pagedAnswer(LoginLogAnswer),
    summary: "a user's sign-in history",
    query: LoginListQuery,
  }),
  patchSuperUserInfo: endpoint<AdminUserDetail>()({
    method: "PATCH",
    url: "/super/user/info",
    access: "manager",
    answer: AdminUserDetailAnswer,
    summary: "one change per call from the UI (nickname, role, status, balance, password); answers the user's detail",
    body: AdminUpdateUserBody,
  }),
} as const;
