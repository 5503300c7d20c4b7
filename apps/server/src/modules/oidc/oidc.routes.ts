import { OidcApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { clientMeta } from "../auth/auth.routes";
import { finishFlow, linkPending, listBindings, registerPending, startFlow, unbind } from "./oidc.service";
import { createProvider, deleteProvider, listProviders, publicProviders, updateProvider } from "./providers";

export function oidcRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, OidcApi.getAuthOidcProviders, () => publicProviders(ctx));
  defineRoute(app, ctx, OidcApi.getAuthOidcStart, ({ query, req, reply }) =>
    startFlow(ctx, req, reply, query.provider),
  );
  defineRoute(app, ctx, OidcApi.postAuthOidcCallback, ({ body, req }) => finishFlow(ctx, req, body, clientMeta(req)));
  defineRoute(app, ctx, OidcApi.postAuthOidcLink, ({ body, req }) => linkPending(ctx, req, body, clientMeta(req)));
  defineRoute(app, ctx, OidcApi.postAuthOidcRegister, ({ body, req }) =>
    registerPending(ctx, req, body.ticket, clientMeta(req)),
  );
  defineRoute(app, ctx, OidcApi.getUserOidc, ({ user }) => listBindings(ctx, user.uid));
  defineRoute(app, ctx, OidcApi.postUserOidcBind, ({ body, user, req, reply }) =>
    startFlow(ctx, req, reply, body.provider, user.uid),
  );
  defineRoute(app, ctx, OidcApi.deleteUserOidc, ({ body, user }) => unbind(ctx, user.uid, body.provider));
  defineRoute(app, ctx, OidcApi.getSuperOidc, () => listProviders(ctx));
  defineRoute(app, ctx, OidcApi.postSuperOidc, ({ body, operator }) => createProvider(ctx, operator, body));
  defineRoute(app, ctx, OidcApi.patchSuperOidc, ({ body, operator }) => updateProvider(ctx, operator, body));
  defineRoute(app, ctx, OidcApi.deleteSuperOidc, ({ body, operator }) => deleteProvider(ctx, operator, body.id));
}
