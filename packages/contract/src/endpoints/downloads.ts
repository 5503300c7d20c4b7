import type { Paged } from "../codes";
import {
  CreateDownloadBody,
  DeleteDownloadBody,
  DownloadListQuery,
  type DownloadRow,
  UpdateDownloadBody,
} from "../downloads";
import { endpoint } from "../endpoint";

/** The downloads endpoints (see endpoint.ts). */
export const DownloadsApi = {
  getUserDownload: endpoint<DownloadRow[]>()({
    method: "GET",
    url: "/user/download",
    access: "user",
    summary: "every build, newest version first",
  }),
  getSuperDownload: endpoint<Paged<DownloadRow>>()({
    method: "GET",
    url: "/super/download",
    access: "manager",
    summary: "frpc builds, paged and filtered",
    query: DownloadListQuery,
  }),
  postSuperDownload: endpoint<DownloadRow>()({
    method: "POST",
    url: "/super/download",
    access: "manager",
    summary: "one build per os, arch and version (40008 on version)",
    body: CreateDownloadBody,
  }),
  patchSuperDownload: endpoint<DownloadRow>()({
    method: "PATCH",
    url: "/super/download",
    access: "manager",
    summary: "changes a build",
    body: UpdateDownloadBody,
  }),
  deleteSuperDownload: endpoint<null>()({
    method: "DELETE",
    url: "/super/download",
    access: "manager",
    summary: "deletes a build",
    body: DeleteDownloadBody,
  }),
} as const;
