import { ChangePasswordBody, ChangePhoneBody, PageQuery, UpdateInfoBody } from "@burrow/contract";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { avatarFileRoute, saveAvatar } from "./avatars";
import { listLoginLogs } from "./users.repository";
import { changePassword, changePhone, getUserInfo, resetFrpToken, updateInfo } from "./users.service";

export function usersRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/userInfo",
    access: "user",
    handler: ({ user }) => getUserInfo(ctx, user.uid),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/user/info",
    access: "user",
    body: UpdateInfoBody,
    handler: ({ user, body }) => updateInfo(ctx, user.uid, body),
  });
  // Multipart only where it is used: its hooks would otherwise run on every request, the frp
  // plugin's hot path included.
  void app.register(async (scope) => {
    await scope.register(multipart);
    defineRoute(scope, ctx, {
      method: "POST",
      url: "/user/avatar",
      access: "user",
      handler: async ({ user, req }) => {
        const url = await saveAvatar(ctx, req, user.uid);
        await updateInfo(ctx, user.uid, { avatar: url });
        return { url };
      },
    });
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/password",
    access: "user",
    body: ChangePasswordBody,
    handler: ({ user, body, req }) => changePassword(ctx, user.uid, body, req.ip),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/phone",
    access: "user",
    body: ChangePhoneBody,
    handler: ({ user, body }) => changePhone(ctx, user.uid, body),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/frpToken",
    access: "user",
    handler: ({ user }) => resetFrpToken(ctx, user.uid),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/loginList",
    access: "user",
    query: PageQuery,
    handler: ({ user, query }) => listLoginLogs(ctx.db, user.uid, query.page, query.size),
  });
  avatarFileRoute(app, ctx);
}
