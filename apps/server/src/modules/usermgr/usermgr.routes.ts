import { UsermgrApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { listLoginLogs } from "../users/users.repository";
import { listUsers, updateUser, userDetail } from "./usermgr.service";

export function usermgrRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, UsermgrApi.getSuperUserList, ({ query }) => listUsers(ctx, query));
  defineRoute(app, ctx, UsermgrApi.getSuperUserDetail, ({ query }) => userDetail(ctx, query.uid));
  defineRoute(app, ctx, UsermgrApi.getSuperUserLoginList, ({ query }) =>
    listLoginLogs(ctx.db, query.uid, query.page, query.size),
  );
  defineRoute(app, ctx, UsermgrApi.patchSuperUserInfo, ({ body, operator }) => updateUser(ctx, operator, body));
}
