import { type AdminVerifyBody, ProcessStatus, VerifyApi, type VerifyBody, type VerifySetting } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const verifyKeys = {
  all: ["verify"] as const,
  mine: () => [...verifyKeys.all, "mine"] as const,
  admin: (uid: number) => [...verifyKeys.all, "admin", uid] as const,
  setting: () => [...verifyKeys.all, "setting"] as const,
};

/** GET /user/verify: the caller's verification, masked. */
export const myVerifyQuery = () =>
  queryOptions({
    queryKey: verifyKeys.mine(),
    queryFn: ({ signal }) => api.call(VerifyApi.getUserVerify, {}, { signal }),
  });

/** GET /user/verify/result: the same state, read after the provider's page. */
export const verifyResultQuery = () =>
  queryOptions({
    queryKey: [...verifyKeys.mine(), "result"],
    queryFn: ({ signal }) => api.call(VerifyApi.getUserVerifyResult, {}, { signal }),
  });

/** POST /user/verify */
export const submitVerify = (body: VerifyBody) => api.call(VerifyApi.postUserVerify, { body });

/** GET /super/user/verify?uid */
export const adminVerifyQuery = (uid: number) =>
  queryOptions({
    queryKey: verifyKeys.admin(uid),
    queryFn: ({ signal }) => api.call(VerifyApi.getSuperUserVerify, { query: { uid } }, { signal }),
  });

/** POST /super/user/verify: approve, reject with a reason, or reset. */
export const adminVerifyAction = (body: AdminVerifyBody) => api.call(VerifyApi.postSuperUserVerify, { body });

/** GET /super/verify/setting */
export const verifySettingQuery = () =>
  queryOptions({
    queryKey: verifyKeys.setting(),
    queryFn: ({ signal }) => api.call(VerifyApi.getSuperVerifySetting, {}, { signal }),
  });

/** PATCH /super/verify/setting */
export const updateVerifySetting = (body: VerifySetting) => api.call(VerifyApi.patchSuperVerifySetting, { body });

/** The result page's path segment of a status (/account/verify/{segment}). */
export const resultSegment = (status: number): string =>
  status === ProcessStatus.Done ? "done" : status === ProcessStatus.Rejected ? "rejected" : "processing";
