import {
  type AdminVerifyBody,
  ProcessStatus,
  VerifyApi,
  type VerifyBody,
  type VerifyPhotoKind,
  type VerifyQueueQuery,
  type VerifySetting,
} from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { shrinkPhoto } from "./photo";

export const verifyKeys = {
  all: ["verify"] as const,
  mine: () => [...verifyKeys.all, "mine"] as const,
  admin: (uid: number) => [...verifyKeys.all, "admin", uid] as const,
  setting: () => [...verifyKeys.all, "setting"] as const,
  queue: (q: Partial<VerifyQueueQuery>) => [...verifyKeys.all, "queue", q] as const,
  /** a manual review's unmasked data and photos (each fetch is audited on the server) */
  evidence: (uid: number) => [...verifyKeys.all, "evidence", uid] as const,
  review: (uid: number) => [...verifyKeys.evidence(uid), "review"] as const,
  photo: (uid: number, kind: VerifyPhotoKind, version: string) =>
    [...verifyKeys.evidence(uid), "photo", kind, version] as const,
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

/** POST /user/verify/review (multipart): name, number and photos of the ID card (shrunk first) for an operator's review. */
export const submitReview = async (body: VerifyBody, photos: Partial<Record<VerifyPhotoKind, Blob>>) => {
  const form = new FormData();
  form.append("real_name", body.real_name);
  form.append("id_number", body.id_number);
  for (const [kind, file] of Object.entries(photos)) if (file) form.append(kind, await shrinkPhoto(file), kind);
  return api.upload(VerifyApi.postUserVerifyReview, form);
};

/** GET /super/verify/queue: requests waiting for a decision. */
export const verifyQueueQuery = (q: Partial<VerifyQueueQuery>) =>
  queryOptions({
    queryKey: verifyKeys.queue(q),
    queryFn: ({ signal }) => api.call(VerifyApi.getSuperVerifyQueue, { query: q }, { signal }),
  });

/**
 * GET /super/user/verify/review (Managers): the full name and number, and the submission's
 * version the decision carries. Audited per call, so fetched once per visit (never refetched in
 * the background) and dropped when the decision is made or the submission changed.
 */
export const verifyReviewQuery = (uid: number) =>
  queryOptions({
    queryKey: verifyKeys.review(uid),
    queryFn: ({ signal }) => api.call(VerifyApi.getSuperUserVerifyReview, { query: { uid } }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/**
 * One photo as a blob (the call needs the token, so an <img src> cannot fetch it); audited like the
 * review. Of the reviewed version only: a later submission's photo is refused (409).
 */
export const verifyPhotoQuery = (uid: number, kind: VerifyPhotoKind, version: string) =>
  queryOptions({
    queryKey: verifyKeys.photo(uid, kind, version),
    queryFn: async ({ signal }) =>
      (await api.download(VerifyApi.getSuperUserVerifyPhoto, { query: { uid, kind, version } }, { signal })).blob,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** GET /super/user/verify?uid */
export const adminVerifyQuery = (uid: number) =>
  queryOptions({
    queryKey: verifyKeys.admin(uid),
    queryFn: ({ signal }) => api.call(VerifyApi.getSuperUserVerify, { query: { uid } }, { signal }),
  });

/** POST /super/user/verify: approve (a manual review: with the reviewed version), reject with a reason, or reset. */
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
