import { z } from "zod";
import { pagedAnswer } from "../answers";
import { DownloadRowAnswer } from "../answers/downloads";
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
    answer: z.array(DownloadRowAnswer),
    summary: "every build, newest version first",
  }),
  getSuperDownload: endpoint<Paged<DownloadRow>>()({
    method: "GET",
    url: "/super/download",
    access: "manager",
    answer: pagedAnswer(DownloadRowAnswer),
    summary: "frpc builds, paged and filtered",
    query: DownloadListQuery,
  }),
  postSuperDownload: endpoint<DownloadRow>()({
    method: "POST",
    url: "/super/download",
    access: "manager",
    answer: DownloadRowAnswer,
    summary: "one build per os, arch and version (40008 on version)",
    body: CreateDownloadBody,
  }),
  patchSuperDownload: endpoint<DownloadRow>()({
    method: "PATCH",
    url: "/super/download",
    access: "manager",
    answer: DownloadRowAnswer,
    summary: "changes a build",
    body: UpdateDownloadBody,
  }),
  deleteSuperDownload: endpoint<null>()({
    method: "DELETE",
    url: "/super/download",
    access: "manager",
    answer: z.null(),
    summary: "deletes a build",
    body: DeleteDownloadBody,
  }),
} as const;
