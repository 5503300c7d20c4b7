import { ProcessStatus, VerifyApi } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { uploadOf } from "../../http/upload";
import { flattenParams } from "../../shared/form-params";
import { publicBase } from "./provider";
import { adminVerifyAction, adminVerifyReview, adminVerifyView, verifyPhoto, verifyQueue } from "./review";
import { applyProviderResult, submitReview, submitVerification } from "./submissions";
import { updateVerifySetting, verifySetting, verifyState } from "./verify.service";

/** The result page's path segment for a status: /account/verify/{done|processing|rejected}. */
const RESULT_SEGMENT: Record<number, string> = {
  [ProcessStatus.Done]: "done",
  [ProcessStatus.Processing]: "processing",
  [ProcessStatus.Rejected]: "rejected",
};

export function verifyRoutes(api: FastifyInstance, ctx: AppContext): void {
  defineRoute(api, ctx, VerifyApi.getUserVerify, ({ user }) => verifyState(ctx, user.uid));
  defineRoute(api, ctx, VerifyApi.getUserVerifyResult, ({ user }) => verifyState(ctx, user.uid));
  defineRoute(api, ctx, VerifyApi.postUserVerify, ({ user, body }) => submitVerification(ctx, user.uid, body));
  // Multipart only in this scope (see users.routes.ts).
  void api.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, VerifyApi.postUserVerifyReview, ({ user, req }) =>
      submitReview(ctx, user.uid, uploadOf(req)),
    );
  });
  defineRoute(api, ctx, VerifyApi.getSuperUserVerify, ({ query }) => adminVerifyView(ctx, query.uid));
  defineRoute(api, ctx, VerifyApi.getSuperUserVerifyReview, ({ query, operator }) =>
    adminVerifyReview(ctx, operator, query.uid),
  );
  defineRoute(api, ctx, VerifyApi.getSuperUserVerifyPhoto, async ({ query, operator, reply }) =>
    sendDownload(reply, await verifyPhoto(ctx, operator, query)),
  );
  defineRoute(api, ctx, VerifyApi.getSuperVerifyQueue, ({ query }) => verifyQueue(ctx, query));
  defineRoute(api, ctx, VerifyApi.postSuperUserVerify, ({ body, operator }) => adminVerifyAction(ctx, operator, body));
  defineRoute(api, ctx, VerifyApi.getSuperVerifySetting, () => verifySetting(ctx));
  defineRoute(api, ctx, VerifyApi.patchSuperVerifySetting, ({ body, operator }) =>
    updateVerifySetting(ctx, operator, body),
  );

  // The provider's side, in its own scope for the form-body parser the notify needs.
  void api.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        // A repeated field must stay visible to the verifier (URLSearchParams would keep the last).
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of new URLSearchParams(String(body))) {
          const prev = out[k];
          out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
        }
        done(null, out);
      },
    );
    defineRoute(scope, ctx, VerifyApi.getVerifyReturn, async ({ req, reply }) => {
      const applied = await applyProviderResult(ctx, flattenParams(req.query));
      // Only a signed result picks the page; the page reads the real state from the API anyway.
      const segment = applied ? (RESULT_SEGMENT[applied.status] ?? "processing") : "processing";
      return reply.redirect(`${publicBase(ctx.config)}/account/verify/${segment}`, 302);
    });
    defineRoute(scope, ctx, VerifyApi.postVerifyNotify, async ({ req, reply }) => {
      const applied = await applyProviderResult(ctx, flattenParams(req.body));
      return reply
        .status(applied ? 200 : 400)
        .type("text/plain; charset=utf-8")
        .send(applied ? "success" : "fail");
    });
  });
}
