import type { ChangePasswordBody, ChangePhoneBody, UpdateInfoBody } from "@burrow/contract";
import { AuthApi, UsersApi } from "@burrow/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

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
  queryOptions({
    queryKey: accountKeys.loginList(page, size),
    queryFn: ({ signal }) => api.call(UsersApi.getUserLoginList, { query: { page, size } }, { signal }),
    placeholderData: keepPreviousData,
  });

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
