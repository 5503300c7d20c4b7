import { LeavingApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { passkeyConfirmOptions } from "../auth/passkey-confirm";
import { exportData } from "./export";
import { cancelDeletion, deletionPrecheck, listDeletions, myDeletion, requestDeletion } from "./leaving.service";

/** The data export, the deletion request and its cancel, the operators' list (docs/leaving.md). */
export function leavingRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, LeavingApi.getUserLeavingExport, async ({ user, reply }) =>
    sendDownload(reply, await exportData(ctx, user)),
  );
  defineRoute(app, ctx, LeavingApi.getUserLeaving, ({ user }) => myDeletion(ctx, user.uid));
  defineRoute(app, ctx, LeavingApi.getUserLeavingPrecheck, ({ user }) => deletionPrecheck(ctx, user.uid));
  defineRoute(app, ctx, LeavingApi.postUserLeavingPasskeyOptions, ({ user, operator }) =>
    passkeyConfirmOptions(ctx, user, operator.ip),
  );
  defineRoute(app, ctx, LeavingApi.postUserLeaving, ({ user, body, operator }) =>
    requestDeletion(ctx, user, body, operator.ip),
  );
  defineRoute(app, ctx, LeavingApi.deleteUserLeaving, async ({ user }) => {
    await cancelDeletion(ctx, user.uid);
    return null;
  });
  defineRoute(app, ctx, LeavingApi.getSuperLeaving, ({ query }) => listDeletions(ctx, query));
}
