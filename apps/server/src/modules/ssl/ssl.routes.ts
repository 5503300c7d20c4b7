import { SslApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import type { JobDef } from "../../shared/jobs";
import {
  advanceDueIssues,
  cancelIssue,
  checkIssue,
  download,
  getIssue,
  overview,
  removeCertificate,
  renewDueCertificates,
  startIssue,
  upload,
} from "./ssl.service";

/** SSL certificates of the customer's verified domains (/user/ssl). */
export function sslRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, SslApi.getUserSsl, ({ user }) => overview(ctx, user.uid));
  defineRoute(app, ctx, SslApi.postUserSsl, ({ user, body }) => upload(ctx, user.uid, body));
  defineRoute(app, ctx, SslApi.deleteUserSsl, ({ user, params }) => removeCertificate(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.getUserSslDownload, ({ user, params, query, reply }) =>
    download(ctx, user.uid, params.id, query.part, reply),
  );
  defineRoute(app, ctx, SslApi.postUserSslOrder, ({ user, body }) => startIssue(ctx, user.uid, body));
  defineRoute(app, ctx, SslApi.getUserSslOrder, ({ user, params }) => getIssue(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.postUserSslOrderCheck, ({ user, params }) => checkIssue(ctx, user.uid, params.id));
  defineRoute(app, ctx, SslApi.postUserSslOrderCancel, ({ user, params }) => cancelIssue(ctx, user.uid, params.id));
}

/** The certificate jobs (SSL_JOBS; on by default except under NODE_ENV=test, where tests call them). */
export function sslJobs(ctx: AppContext): JobDef[] {
  if (!(ctx.config.SSL_JOBS ?? ctx.config.NODE_ENV !== "test")) return [];
  return [
    { name: "ssl-acme-steps", everyMs: ctx.config.SSL_CHECK_INTERVAL * 1000, run: (c) => advanceDueIssues(c) },
    { name: "ssl-renewals", everyMs: 3600_000, firstDelayMs: 60_000, run: (c) => renewDueCertificates(c) },
  ];
}
