import type {
  ChangePasswordBody,
  ChangePhoneBody,
  TotpCodeBody,
  TotpDisableBody,
  UpdateInfoBody,
} from "@burrow/contract";
import { AuthApi, UsersApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export const accountKeys = {
  all: ["account"] as const,
  info: () => [...accountKeys.all, "info"] as const,
  loginLists: () => [...accountKeys.all, "loginList"] as const,
  loginList: (page: number, size: number) => [...accountKeys.loginLists(), { page, size }] as const,
};

/** GET /user/userInfo: the signed-in user; loaded by every shell. */
export const userInfoQuery = () =>
  queryOptions({
    queryKey: accountKeys.info(),
    queryFn: ({ signal }) => api.call(UsersApi.getUserUserInfo, {}, { signal }),
  });

/** GET /user/loginList: the user's own sign-in history. */
export const loginListQuery = (page: number, size: number) =>
  pagedListQuery(accountKeys.loginList(page, size), UsersApi.getUserLoginList, { page, size });

/** PATCH /user/info */
export const updateInfo = (body: UpdateInfoBody) => api.call(UsersApi.patchUserInfo, { body });

/** POST /user/avatar (multipart "file") → the stored avatar's URL; the server also saves it on the user. */
export const uploadAvatar = (file: Blob, onProgress?: (percent: number) => void) => {
  const form = new FormData();
  form.append("file", file);
  return api.upload(UsersApi.postUserAvatar, form, {
    onUploadProgress: onProgress,
  });
};

/** POST /user/password: revokes every session, including the current one. */
export const changePassword = (body: ChangePasswordBody) => api.call(AuthApi.postUserPassword, { body });

/** POST /user/phone: the code was sent to the new phone with scene "phone". */
export const changePhone = (body: ChangePhoneBody) => api.call(AuthApi.postUserPhone, { body });

/** POST /user/frpToken: issues a new frp access token; frpc configs with the old one stop working. */
export const resetFrpToken = () => api.call(UsersApi.postUserFrpToken);

export const securityKeys = {
  mfa: () => [...accountKeys.all, "mfa"] as const,
  sessions: () => [...accountKeys.all, "sessions"] as const,
};

/** GET /user/mfa: whether two-factor sign-in is on, codes left, whether the site requires it */
export const mfaStatusQuery = () =>
  queryOptions({
    queryKey: securityKeys.mfa(),
    queryFn: ({ signal }) => api.call(AuthApi.getUserMfa, {}, { signal }),
  });

/** POST /user/mfa/totp: a new secret, not in force until confirmed */
export const startTotp = () => api.call(AuthApi.postUserMfaTotp);

/** POST /user/mfa/totp/confirm: on; the ten recovery codes, shown once */
export const confirmTotp = (body: TotpCodeBody) => api.call(AuthApi.postUserMfaTotpConfirm, { body });

/** POST /user/mfa/recovery-codes: ten new recovery codes (the old ones stop working) */
export const regenerateRecoveryCodes = (body: TotpCodeBody) => api.call(AuthApi.postUserMfaRecoveryCodes, { body });

/** POST /user/mfa/totp/disable: with a code or the password */
export const disableTotp = (body: TotpDisableBody) => api.call(AuthApi.postUserMfaTotpDisable, { body });

/** GET /user/sessions: the signed-in devices */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: securityKeys.sessions(),
    queryFn: ({ signal }) => api.call(AuthApi.getUserSessions, {}, { signal }),
  });

/** DELETE /user/sessions/:sid */
export const revokeSession = (sid: string) => api.call(AuthApi.deleteUserSession, { params: { sid } });

/** POST /user/sessions/revoke-others */
export const revokeOtherSessions = () => api.call(AuthApi.postUserSessionsRevokeOthers);
