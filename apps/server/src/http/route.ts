import { type Access, type Endpoint, endpointScope, type Parsed, Role, type Scope } from "@burrow/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodType } from "zod";
import type { AppContext } from "../context";
import type { Operator } from "../shared/actor";
import { assertScope, type Principal } from "../shared/auth";
import { forbidden } from "../shared/errors";
import { sendAnswer } from "./answers";

export type { Access };

export interface RouteContext<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  /** the caller, whatever credential kind they used (only meaningful on authenticated routes) */
  user: Principal;
  /** the caller as an audit operator ({uid, ip}); only meaningful on authenticated routes */
  operator: Operator;
  req: FastifyRequest;
  reply: FastifyReply;
  ctx: AppContext;
}

/** What a handler may return: the endpoint's `data` (void for null), or the reply it sent itself. */
// biome-ignore lint/suspicious/noConfusingVoidType: services that answer nothing return Promise<void>
type HandlerResult<R> = (R extends null ? R | undefined | void : R) | FastifyReply;

type AnyEndpoint = Endpoint<unknown, ZodType | undefined, ZodType | undefined, ZodType | undefined>;

/** Every route with its access level ("METHOD url" → access), for the tests that walk the route table. */
export const registeredRoutes = new Map<string, Access>();
/** Every authenticated route's scope ("METHOD url" → scope), for the scope tests. */
export const registeredScopes = new Map<string, Scope>();

/**
 * The one place where authentication, role and scope checks happen for every API route: the
 * credential is whatever kind ctx.auth recognises; the role comes first (a customer on /super
 * hears 30004 whatever the credential), then the scope the endpoint needs (endpointScope).
 */
export async function authorize(
  ctx: AppContext,
  req: FastifyRequest,
  ep: { access: Access; scope?: Scope },
): Promise<Principal | null> {
  const scope = endpointScope(ep);
  if (scope === null) return null;
  const user = await ctx.auth.authenticate(req.headers.authorization, { ip: req.ip });
  if (ep.access === "staff" && user.role < Role.Support) throw forbidden();
  if (ep.access === "manager" && user.role !== Role.Manager) throw forbidden();
  assertScope(user, scope);
  return user;
}

/**
 * Registers the contract's endpoint with its handler: authenticates, checks the role, validates
 * body, query and params with the endpoint's schemas (a bad field → 400/10000 naming it) and wraps
 * the result in `{code,msg,data}`, serialised by the endpoint's answer schema (http/answers.ts: a
 * field the contract does not declare is not sent). The handler's result is type-checked against
 * the endpoint's response type.
 */
export function defineRoute<
  R,
  B extends ZodType | undefined,
  Q extends ZodType | undefined,
  P extends ZodType | undefined,
>(
  app: FastifyInstance,
  ctx: AppContext,
  ep: Endpoint<R, B, Q, P>,
  handler: (c: RouteContext<Parsed<B>, Parsed<Q>, Parsed<P>>) => Promise<HandlerResult<R>> | HandlerResult<R>,
): void {
  const def = ep as AnyEndpoint;
  if (def.url.startsWith("/super") && def.access !== "manager" && def.access !== "staff") {
    throw new Error(`${def.method} ${def.url}: /super routes must be staff or manager`);
  }
  registeredRoutes.set(`${def.method} ${def.url}`, def.access);
  const scope = endpointScope(def);
  if (scope) registeredScopes.set(`${def.method} ${def.url}`, scope);
  app.route({
    method: def.method,
    url: def.url,
    // the endpoint itself, for what reads the route's contract entry (the test-time answer check)
    config: { endpoint: def },
    handler: async (req, reply) => {
      const user = await authorize(ctx, req, def);
      // Parse after authorising so that anonymous callers learn nothing about the input rules.
      // A ZodError propagates to the error handler, which names the field (400/10000).
      const body = def.body ? def.body.parse(req.body ?? {}) : undefined;
      const query = def.query ? def.query.parse(req.query ?? {}) : undefined;
      const params = def.params ? def.params.parse(req.params ?? {}) : undefined;
      const operator: Operator = { uid: user?.uid ?? 0, ip: req.ip };
      const data = await handler({
        body,
        query,
        params,
        user: user as Principal,
        operator,
        req,
        reply,
        ctx,
      } as RouteContext<Parsed<B>, Parsed<Q>, Parsed<P>>);
      if (reply.sent) return reply;
      return sendAnswer(reply, def, data);
    },
  });
}
