import { SslApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { certificateDownload } from "./downloads";
import { cancelIssue, checkIssue, getIssue, startIssue } from "./issues";
import { overview, removeCertificate } from "./ssl.service";
import { upload } from "./uploads";

/** SSL certificates of the customer's verified domains (/user/ssl). */
export function sslRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, SslApi.getUserSsl, ({ user }) => overview(ctx, user.uid));
  defineRoute(app, ctx, SslApi.postUserSsl, ({ user, body }) => upload(ctx, user.uid, body));
  defineRoute(app, ctx, SslApi.deleteUserSsl, ({ user, params }) => removeCertificate(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.getUserSslDownload, async ({ user, params, query, reply }) =>
    sendDownload(reply, await certificateDownload(ctx, user.uid, params.id, query.part)),
  );
  defineRoute(app, ctx, SslApi.postUserSslOrder, ({ user, body }) => startIssue(ctx, user.uid, body));
  defineRoute(app, ctx, SslApi.getUserSslOrder, ({ user, params }) => getIssue(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.postUserSslOrderCheck, ({ user, params }) => checkIssue(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.postUserSslOrderCancel, ({ user, params }) => cancelIssue(ctx, user.uid, params.id));
}
