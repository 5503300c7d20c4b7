import { AdminUpdateUserBody, AdminUserListQuery, LoginListQuery, UidQuery } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { listLoginLogs } from "../users/users.repository";
import { listUsers, updateUser, userDetail, viewInfo } from "./usermgr.service";

export function usermgrRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/user/list",
    access: "staff",
    query: AdminUserListQuery,
    handler: ({ query }) => listUsers(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/user/detail",
    access: "staff",
    query: UidQuery,
    handler: ({ query }) => userDetail(ctx, query.uid),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/user/loginList",
    access: "staff",
    query: LoginListQuery,
    handler: ({ query }) => listLoginLogs(ctx.db, query.uid, query.page, query.size),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/user/info",
    access: "manager",
    body: AdminUpdateUserBody,
    handler: ({ body, user, req }) => updateUser(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/viewInfo",
    access: "staff",
    handler: () => viewInfo(ctx),
  });
}
