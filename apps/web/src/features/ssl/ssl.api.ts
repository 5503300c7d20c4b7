import { SslApi, type SslFilePart, type SslIssueBody, type SslUploadBody } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const sslKeys = {
  all: ["ssl"] as const,
  overview: () => [...sslKeys.all, "overview"] as const,
};

/** GET /user/ssl: certificates, issues and the verified domains; polled while an issue runs. */
export const sslOverviewQuery = () =>
  queryOptions({
    queryKey: sslKeys.overview(),
    queryFn: ({ signal }) => api.call(SslApi.getUserSsl, {}, { signal }),
    refetchInterval: (q) =>
      q.state.data?.orders.some((o) => !["issued", "failed", "cancelled"].includes(o.step)) ? 3000 : false,
  });

/** POST /user/ssl */
export const uploadCertificate = (body: SslUploadBody) => api.call(SslApi.postUserSsl, { body });
/** DELETE /user/ssl/:id */
export const deleteCertificate = (id: number) => api.call(SslApi.deleteUserSsl, { params: { id } });
/** GET /user/ssl/:id/download?part */
export const downloadCertificate = (id: number, part: SslFilePart) =>
  api.download(SslApi.getUserSslDownload, { params: { id }, query: { part } });
/** POST /user/ssl/order */
export const startIssue = (body: SslIssueBody) => api.call(SslApi.postUserSslOrder, { body });
/** POST /user/ssl/order/:id/check */
export const checkIssue = (id: number) => api.call(SslApi.postUserSslOrderCheck, { params: { id } });
/** POST /user/ssl/order/:id/cancel */
export const cancelIssue = (id: number) => api.call(SslApi.postUserSslOrderCancel, { params: { id } });
