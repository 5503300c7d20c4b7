import { type AdminDeletionQuery, LeavingApi, type RequestDeletionBody } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { answerWithPasskey } from "@/features/auth/passkey.requests";
import { saveBlob } from "@/lib/download";

export const leavingKeys = {
  mine: ["leaving", "mine"] as const,
  precheck: ["leaving", "precheck"] as const,
  admin: (q: Partial<AdminDeletionQuery>) => ["leaving", "admin", q] as const,
};

/** GET /user/leaving: the pending deletion (the banner), or null. */
export const myDeletionQuery = () =>
  queryOptions({
    queryKey: leavingKeys.mine,
    queryFn: ({ signal }) => api.call(LeavingApi.getUserLeaving, {}, { signal }),
  });

/** GET /user/leaving/precheck: money left to forfeit, whether a second factor is asked. */
export const deletionPrecheckQuery = () =>
  queryOptions({
    queryKey: leavingKeys.precheck,
    queryFn: ({ signal }) => api.call(LeavingApi.getUserLeavingPrecheck, {}, { signal }),
  });

/** POST /user/leaving: asks for the deletion. */
export const requestDeletion = (body: RequestDeletionBody) => api.call(LeavingApi.postUserLeaving, { body });

/**
 * POST /user/leaving confirmed by a passkey: a challenge bound to this session, the browser's
 * answer (the device asks for the passkey), then the request carrying it.
 */
export async function requestDeletionWithPasskey(body: RequestDeletionBody) {
  const { options } = await api.call(LeavingApi.postUserLeavingPasskeyOptions, {});
  const credential = await answerWithPasskey(options);
  return api.call(LeavingApi.postUserLeaving, { body: { ...body, code: undefined, credential: credential as never } });
}

/** DELETE /user/leaving: cancels it. */
export const cancelDeletion = () => api.call(LeavingApi.deleteUserLeaving, {});

/** GET /user/leaving/export: saves the customer's data as JSON. */
export async function downloadMyData(): Promise<void> {
  const file = await api.download(LeavingApi.getUserLeavingExport);
  saveBlob(file.blob, file.filename ?? "burrow-export.json");
}

/** GET /super/leaving: deletions, pending first. */
export const adminDeletionsQuery = (q: Partial<AdminDeletionQuery>) =>
  queryOptions({
    queryKey: leavingKeys.admin(q),
    queryFn: ({ signal }) => api.call(LeavingApi.getSuperLeaving, { query: q }, { signal }),
  });
