import { LaunchApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { AppError } from "../../shared/errors";
import { LaunchLimited, launchFile } from "./launch.public";
import { commandsFor, launchToken, revokeLaunchToken, rotateLaunchToken } from "./launch.service";

/** The customer's launch token and installers (console, under /api). */
export function launchRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, LaunchApi.getUserLaunch, ({ user }) => launchToken(ctx, user.uid));
  defineRoute(app, ctx, LaunchApi.postUserLaunch, ({ user }) => rotateLaunchToken(ctx, user.uid));
  defineRoute(app, ctx, LaunchApi.deleteUserLaunch, ({ user }) => revokeLaunchToken(ctx, user.uid));
  defineRoute(app, ctx, LaunchApi.getUserLaunchCommands, ({ user, query }) =>
    commandsFor(ctx, user.uid, query.node_id),
  );
}

/**
 * The installers' fetches, outside /api and without a session: `/launch/<token>/<node>/<file>`.
 * Every answer is plain text, a refusal included: the wrapper prints it as it is (the request
 * log writes the token as *** — http/request-log.ts).
 */
export function serveLaunchFiles(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { token: string; node_id: string; file: string } }>(
    "/launch/:token/:node_id/:file",
    async (req, reply) => {
      try {
        const file = await launchFile(ctx, {
          token: req.params.token,
          nodeId: req.params.node_id,
          file: req.params.file,
          query: req.query as Record<string, unknown>,
          ip: req.ip,
        });
        return sendDownload(reply, file);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        if (e instanceof LaunchLimited) reply.header("retry-after", String(e.retryAfterSec));
        return reply
          .code(e.status)
          .header("content-type", "text/plain; charset=utf-8")
          .header("cache-control", "no-store")
          .send(`${e.message}\n`);
      }
    },
  );
}
