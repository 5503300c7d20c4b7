import { DownloadsApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { AGENT_BUNDLE_PATH, agentBundle } from "./agent-bundle";
import { createDownload, deleteDownload, listDownloads, updateDownload, userDownloads } from "./downloads.service";

/** frpc builds: operators manage them under /super/download, customers list them. */
export function downloadsRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, DownloadsApi.getUserDownload, () => userDownloads(ctx));
  defineRoute(app, ctx, DownloadsApi.getSuperDownload, ({ query }) => listDownloads(ctx, query));
  defineRoute(app, ctx, DownloadsApi.postSuperDownload, ({ body, operator }) => createDownload(ctx, operator, body));
  defineRoute(app, ctx, DownloadsApi.patchSuperDownload, ({ body, operator }) => updateDownload(ctx, operator, body));
  defineRoute(app, ctx, DownloadsApi.deleteSuperDownload, ({ body, operator }) =>
    deleteDownload(ctx, operator, body.id),
  );
}

/** The node agent's bundle, outside /api: a node downloads it with curl and no credential (it holds no secret). */
export function serveAgentBundle(app: FastifyInstance, ctx: AppContext): void {
  app.get(AGENT_BUNDLE_PATH, async (_req, reply) => sendDownload(reply, await agentBundle(ctx)));
}
