import { CreateDownloadBody, DeleteDownloadBody, DownloadListQuery, UpdateDownloadBody } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createDownload, deleteDownload, listDownloads, updateDownload, userDownloads } from "./downloads.service";

/** frpc builds: operators manage them under /super/download, customers list them. */
export function downloadsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/download",
    access: "user",
    handler: () => userDownloads(ctx),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/download",
    access: "manager",
    query: DownloadListQuery,
    handler: ({ query }) => listDownloads(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/download",
    access: "manager",
    body: CreateDownloadBody,
    handler: ({ body, user, req }) => createDownload(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/download",
    access: "manager",
    body: UpdateDownloadBody,
    handler: ({ body, user, req }) => updateDownload(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/download",
    access: "manager",
    body: DeleteDownloadBody,
    handler: ({ body, user, req }) => deleteDownload(ctx, { uid: user.uid, ip: req.ip }, body.id),
  });
}
