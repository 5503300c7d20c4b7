import type { CreateDownloadBody, DownloadListQuery, UpdateDownloadBody } from "@burrow/contract";
import { DownloadsApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";

export type DownloadFilters = Partial<Omit<DownloadListQuery, "page" | "size">> & { page: number; size: number };

export const downloadsKeys = {
  all: ["downloads"] as const,
  user: () => [...downloadsKeys.all, "user"] as const,
  admin: (f: DownloadFilters) => [...downloadsKeys.all, "admin", f] as const,
};

/** GET /user/download: every build, newest version first */
export const userDownloadsQuery = () =>
  queryOptions({
    queryKey: downloadsKeys.user(),
    queryFn: ({ signal }) => api.call(DownloadsApi.getUserDownload, {}, { signal }),
    staleTime: 5 * 60_000,
  });

/** GET /super/download */
export const adminDownloadsQuery = (filters: DownloadFilters) =>
  pagedListQuery(downloadsKeys.admin(filters), DownloadsApi.getSuperDownload, filters);

/** POST /super/download: one build per os, arch and version (40008 on version) */
export const createDownload = (body: CreateDownloadBody) => api.call(DownloadsApi.postSuperDownload, { body });
/** PATCH /super/download */
export const updateDownload = (body: UpdateDownloadBody) => api.call(DownloadsApi.patchSuperDownload, { body });
/** DELETE /super/download */
export const deleteDownload = (id: number) => api.call(DownloadsApi.deleteSuperDownload, { body: { id } });
