import { createReadStream } from "node:fs";
import { DownloadsApi } from "@burrow/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { AGENT_BUNDLE_PATH, agentBundle } from "./agent-bundle";
import { createDownload, deleteDownload, listDownloads, updateDownload, userDownloads } from "./downloads.service";
import { type MirroredFileInfo, mirroredFile } from "./mirror-files";
import { MIRROR_ROUTE_PREFIX } from "./mirror-paths";

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

/**
 * Public files outside /api, fetched with curl and no credential (they hold no secret): the node
 * agent's bundle, and the frpc/frps builds the console mirrors.
 */
export function servePublicFiles(app: FastifyInstance, ctx: AppContext): void {
  app.get(AGENT_BUNDLE_PATH, async (_req, reply) => sendDownload(reply, await agentBundle(ctx)));
  // HEAD declared, not derived from GET: Fastify's derived HEAD would read the whole file to discard it.
  app.route<{ Params: { version: string; file: string } }>({
    method: ["GET", "HEAD"],
    url: `${MIRROR_ROUTE_PREFIX}/:version/:file`,
    exposeHeadRoute: false,
    handler: async (req, reply) =>
      sendMirrored(reply, await mirroredFile(ctx, req.params.version, req.params.file), req.method, req.headers),
  });
}

function sendMirrored(
  reply: FastifyReply,
  f: MirroredFileInfo,
  method: string,
  headers: Record<string, string | string[] | undefined>,
): FastifyReply {
  reply
    .header("content-type", "application/octet-stream")
    .header("content-disposition", `attachment; filename="${f.name}"`)
    .header("etag", f.etag)
    .header("cache-control", "public, max-age=3600")
    .header("x-content-type-options", "nosniff");
  if (headers["if-none-match"] === f.etag) return reply.code(304).send();
  reply.header("content-length", f.size);
  return method === "HEAD" ? reply.send() : reply.send(createReadStream(f.path));
}
