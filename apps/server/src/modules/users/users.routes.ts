import { UsersApi } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { uploadOf } from "../../http/upload";
import { readAvatar, saveAvatar } from "./avatars";
import { listLoginLogs } from "./users.repository";
import { getUserInfo, resetFrpToken, updateInfo } from "./users.service";

export function usersRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, UsersApi.getUserUserInfo, ({ user }) => getUserInfo(ctx, user.uid));
  defineRoute(app, ctx, UsersApi.patchUserInfo, ({ user, body }) => updateInfo(ctx, user.uid, body));
  // Multipart only where it is used: its hooks would otherwise run on every request, the frp
  // plugin's hot path included.
  void app.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, UsersApi.postUserAvatar, async ({ user, req }) => {
      const url = await saveAvatar(ctx, uploadOf(req), user.uid);
      await updateInfo(ctx, user.uid, { avatar: url });
      return { url };
    });
  });
  defineRoute(app, ctx, UsersApi.postUserFrpToken, ({ user }) => resetFrpToken(ctx, user.uid));
  defineRoute(app, ctx, UsersApi.getUserLoginList, ({ user, query }) =>
    listLoginLogs(ctx.db, user.uid, query.page, query.size),
  );
  // Stored avatars (public: shown to operators and in the top bar).
  app.get<{ Params: { file: string } }>("/uploads/avatars/:file", async (req, reply) =>
    sendDownload(reply, await readAvatar(ctx, req.params.file)),
  );
}
