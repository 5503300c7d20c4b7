import { TicketsApi } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { uploadOf } from "../../http/upload";
import { assertAppealAttachment, bannedAccount, getBanAppeal, openBanAppeal, replyBanAppeal } from "./appeal";
import { attachmentFile, saveAttachment } from "./attachments";

/** The appeal's endpoints (registered by ticketsRoutes). */
export function appealRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TicketsApi.getUserAppeal, ({ user }) => getBanAppeal(ctx, user.uid));
  defineRoute(app, ctx, TicketsApi.postUserAppeal, ({ user, body }) => openBanAppeal(ctx, user.uid, body));
  defineRoute(app, ctx, TicketsApi.postUserAppealReply, ({ user, body }) => replyBanAppeal(ctx, user.uid, body));
  // Multipart only in this scope (see users.routes.ts). The upload limits are the tickets' own.
  void app.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, TicketsApi.postUserAppealAttachment, async ({ user, req }) => {
      await bannedAccount(ctx.db, user.uid);
      return saveAttachment(ctx, uploadOf(req), user.uid);
    });
  });
  defineRoute(app, ctx, TicketsApi.getUserAppealAttachment, async ({ user, params, reply }) => {
    await assertAppealAttachment(ctx.db, user.uid, params.id);
    return sendDownload(reply, await attachmentFile(ctx, user, params.id));
  });
}
