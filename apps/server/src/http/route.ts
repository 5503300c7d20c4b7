import { Role } from "@burrow/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodType } from "zod";
import type { AppContext } from "../context";
import { type AuthUser, authenticate } from "../modules/auth/sessions";
import { forbidden } from "./errors";

/**
 * Who may call a route. `/super` routes are "manager" unless marked "staff" (support staff may
 * read users and handle tickets, DESIGN.md §4); `defineRoute` refuses anything weaker for them.
 */
export type Access = "public" | "user" | "staff" | "manager";

export interface RouteContext<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  user: AuthUser;
  req: FastifyRequest;
  reply: FastifyReply;
  ctx: AppContext;
}

export interface RouteDef<B, Q, P> {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  url: string;
  access: Access;
  body?: ZodType<B>;
  query?: ZodType<Q>;
  params?: ZodType<P>;
  /** what it returns is sent as `data`; a handler that sends the reply itself is left alone */
  handler: (c: RouteContext<B, Q, P>) => Promise<unknown>;
}

/** Every route with its access level ("METHOD url" → access), for the test that walks all `/super` routes. */
export const registeredRoutes = new Map<string, Access>();

/** The one place where authentication and role checks happen for every API route. */
export async function authorize(ctx: AppContext, req: FastifyRequest, access: Access): Promise<AuthUser | null> {
  if (access === "public") return null;
  const user = await authenticate(ctx, req);
  if (access === "staff" && user.role < Role.Support) throw forbidden();
  if (access === "manager" && user.role !== Role.Manager) throw forbidden();
  return user;
}

/** Registers a validated, authorised route whose result is wrapped in the envelope. */
export function defineRoute<B = undefined, Q = undefined, P = undefined>(
  app: FastifyInstance,
  ctx: AppContext,
  def: RouteDef<B, Q, P>,
): void {
  if (def.url.startsWith("/super") && def.access !== "manager" && def.access !== "staff") {
    throw new Error(`${def.method} ${def.url}: /super routes must be staff or manager`);
  }
  registeredRoutes.set(`${def.method} ${def.url}`, def.access);
  app.route({
    method: def.method,
    url: def.url,
    handler: async (req, reply) => {
      const user = await authorize(ctx, req, def.access);
      // Parse after authorising so that anonymous callers learn nothing about the input rules.
      const body = def.body ? parseIn(def.body, req.body ?? {}, "body") : (undefined as B);
      const query = def.query ? parseIn(def.query, req.query ?? {}, "query") : (undefined as Q);
      const params = def.params ? parseIn(def.params, req.params ?? {}, "params") : (undefined as P);
      const data = await def.handler({ body, query, params, user: user as AuthUser, req, reply, ctx });
      if (reply.sent) return reply;
      return reply.send({ code: "SUCCESS", msg: "ok", data: data ?? null });
    },
  });
}

function parseIn<T>(schema: ZodType<T>, value: unknown, _where: string): T {
  // ZodError propagates to the error handler, which names the field (400/10000).
  return schema.parse(value);
}
