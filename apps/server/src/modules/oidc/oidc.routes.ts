import { OidcApi } from "@burrow/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { clientMeta } from "../auth/auth.routes";
import { authenticate } from "../auth/sessions";
import {
  BROWSER_COOKIE_MAX_AGE_S,
  type FlowBrowser,
  finishFlow,
  linkPending,
  listBindings,
  registerPending,
  startFlow,
  unbind,
} from "./oidc.service";
import { createProvider, deleteProvider, listProviders, publicProviders, updateProvider } from "./providers";

/** The cookie that binds a flow to the browser that started it (docs/oidc.md), sent to the flow's calls only. */
const COOKIE = "burrow_oidc";
const COOKIE_PATH = "/api/auth/oidc";

/** The request's address and binding cookie (a well-formed value only). */
function browserOf(req: FastifyRequest): FlowBrowser {
  for (const part of String(req.headers.cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    const value = rest.join("=");
    if (name === COOKIE && /^[\w-]{32,64}$/.test(value)) return { ip: req.ip, cookie: value };
  }
  return { ip: req.ip, cookie: undefined };
}

/** Sets the binding cookie: httpOnly, Lax, Secure when the site is served over https. */
function setBrowserCookie(ctx: AppContext, reply: FastifyReply, value: string): void {
  const secure = ctx.config.PUBLIC_URL?.startsWith("https://") ? "; Secure" : "";
  reply.header(
    "set-cookie",
    `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${BROWSER_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
  );
}

export function oidcRoutes(app: FastifyInstance, ctx: AppContext): void {
  const start = async (req: FastifyRequest, reply: FastifyReply, provider: number, uid?: number) => {
    const { result, cookie } = await startFlow(ctx, browserOf(req), provider, uid);
    setBrowserCookie(ctx, reply, cookie);
    return result;
  };
  defineRoute(app, ctx, OidcApi.getAuthOidcProviders, () => publicProviders(ctx));
  defineRoute(app, ctx, OidcApi.getAuthOidcStart, ({ query, req, reply }) => start(req, reply, query.provider));
  defineRoute(app, ctx, OidcApi.postAuthOidcCallback, ({ body, req }) =>
    finishFlow(ctx, browserOf(req), body, clientMeta(req), async () => (await authenticate(ctx, req)).uid),
  );
  defineRoute(app, ctx, OidcApi.postAuthOidcLink, ({ body, req }) =>
    linkPending(ctx, browserOf(req), body, clientMeta(req)),
  );
  defineRoute(app, ctx, OidcApi.postAuthOidcRegister, ({ body, req }) =>
    registerPending(ctx, browserOf(req), body.ticket, clientMeta(req)),
  );
  defineRoute(app, ctx, OidcApi.getUserOidc, ({ user }) => listBindings(ctx, user.uid));
  defineRoute(app, ctx, OidcApi.postUserOidcBind, ({ body, user, req, reply }) =>
    start(req, reply, body.provider, user.uid),
  );
  defineRoute(app, ctx, OidcApi.deleteUserOidc, ({ body, user }) => unbind(ctx, user.uid, body.provider));
  defineRoute(app, ctx, OidcApi.getSuperOidc, () => listProviders(ctx));
  defineRoute(app, ctx, OidcApi.postSuperOidc, ({ body, operator }) => createProvider(ctx, operator, body));
  defineRoute(app, ctx, OidcApi.patchSuperOidc, ({ body, operator }) => updateProvider(ctx, operator, body));
  defineRoute(app, ctx, OidcApi.deleteSuperOidc, ({ body, operator }) => deleteProvider(ctx, operator, body.id));
}
