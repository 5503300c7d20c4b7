import { pagedAnswer, UserInfoAnswer } from "../answers";
import { AvatarAnswer, FrpTokenAnswer, LoginLogAnswer } from "../answers/users";
import type { Paged } from "../codes";
import { PageQuery } from "../common";
import { endpoint } from "../endpoint";
import { type LoginLog, UpdateInfoBody, type UserInfo } from "../users";

/** The users endpoints (see endpoint.ts). */
export const UsersApi = {
  getUserUserInfo: endpoint<UserInfo>()({
    method: "GET",
    url: "/user/userInfo",
    access: "user",
    scope: "account:read",
    answer: UserInfoAnswer,
    summary: "the signed-in user; loaded by every shell",
  }),
  patchUserInfo: endpoint<UserInfo>()({
    method: "PATCH",
    url: "/user/info",
    access: "user",
    answer: UserInfoAnswer,
    summary: "changes the caller's nickname or avatar; answers the updated account (as GET /user/userInfo)",
    body: UpdateInfoBody,
  }),
  postUserAvatar: endpoint<{ url: string }>()({
    method: "POST",
    url: "/user/avatar",
    access: "user",
    summary: 'uploads an avatar (multipart "file"); answers its URL and saves it on the user',
    answer: AvatarAnswer,
    raw: "multipart",
  }),
  postUserFrpToken: endpoint<{ frp_token: string }>()({
    method: "POST",
    url: "/user/frpToken",
    access: "user",
    answer: FrpTokenAnswer,
    summary: "issues a new frp access token; frpc configs with the old one stop working",
  }),
  getUserLoginList: endpoint<Paged<LoginLog>>()({
    method: "GET",
    url: "/user/loginList",
    access: "user",
    answer: pagedAnswer(LoginLogAnswer),
    summary: "the user's own sign-in history",
    query: PageQuery,
  }),
} as const;
