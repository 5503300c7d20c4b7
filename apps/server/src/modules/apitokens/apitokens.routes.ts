import { ApitokensApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-tokens.service";

/** The customer's API tokens: console sessions only (the entries name no token scope). */
export function apitokensRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, ApitokensApi.getUserApiToken, ({ user }) => listApiTokens(ctx.db, user.uid));
  defineRoute(app, ctx, ApitokensApi.postUserApiToken, ({ user, body }) => createApiToken(ctx, user.uid, body));
  defineRoute(app, ctx, ApitokensApi.deleteUserApiTokenId, ({ user, params }) =>
    revokeApiToken(ctx.db, user.uid, params.id),
  );
}
