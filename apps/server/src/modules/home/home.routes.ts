import { HomeApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createHomeConfig, deleteHomeConfig, listHomeConfigs, updateHomeConfig, userHome } from "./home.service";

/** Home content: operators edit it under /super/config/index, customers read it from /user/home. */
export function homeRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, HomeApi.getUserHome, () => userHome(ctx));
  defineRoute(app, ctx, HomeApi.getSuperConfigIndex, ({ query }) => listHomeConfigs(ctx, query));
  defineRoute(app, ctx, HomeApi.postSuperConfigIndex, ({ body, operator }) => createHomeConfig(ctx, operator, body));
  defineRoute(app, ctx, HomeApi.patchSuperConfigIndex, ({ body, operator }) => updateHomeConfig(ctx, operator, body));
  defineRoute(app, ctx, HomeApi.deleteSuperConfigIndex, async ({ body, operator }) => {
    await deleteHomeConfig(ctx, operator, body.id);
    return null;
  });
}
