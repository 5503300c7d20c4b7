import type { z } from "zod";

/**
 * Who may call an endpoint. `/super` endpoints are "manager" unless marked "staff" (support staff
 * may read users and handle tickets); the server refuses to register anything weaker for them.
 */
export type Access = "public" | "user" | "staff" | "manager";
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * What a credential may do, checked besides the role on every non-public call (server
 * `ctx.auth`, docs/security.md "Credentials and scopes"). A console session grants every scope; a
 * narrower credential (a banned customer's appeal session, later an API token) grants only its
 * own. "console" and "admin" are the defaults by access level and are granted by console sessions
 * only, so a new credential kind reaches nothing until an endpoint names a scope it grants.
 */
export const Scopes = [
  "console",
  "admin",
  "appeal",
  // API tokens (apitokens.ts): granted one by one, never "console" or "admin"
  "tunnels:read",
  "tunnels:write",
  "traffic:read",
  "billing:read",
  "account:read",
  // the node agent's credential (agents module): its three /agent routes only
  "agent",
] as const;
export type Scope = (typeof Scopes)[number];

/** The scope of an endpoint that names none, by its access level. */
export const DEFAULT_SCOPE: Record<Exclude<Access, "public">, Scope> = {
  user: "console",
  staff: "admin",
  manager: "admin",
};

/** The scope a call of `ep` needs: its own, else its access level's default; null for public endpoints. */
export function endpointScope(ep: { access: Access; scope?: Scope }): Scope | null {
  if (ep.access === "public") return null;
  return ep.scope ?? DEFAULT_SCOPE[ep.access];
}

type Schema = z.ZodType | undefined;

/**
 * One API call, as data: the server registers its handler from it (type-checked against `R`), the
 * web calls it through `api.call` (input and answer types inferred), the OpenAPI document and the
 * route-table guard test are generated from it. `url` is relative to `/api`, Fastify style
 * (`/user/order/:trade_id`).
 */
export interface Endpoint<
  R = unknown,
  B extends Schema = Schema,
  Q extends Schema = Schema,
  P extends Schema = Schema,
> {
  readonly method: HttpMethod;
  readonly url: string;
  readonly access: Access;
  /** the scope a credential needs (besides the role); when absent, {@link DEFAULT_SCOPE} of the access level */
  readonly scope?: Scope;
  /** one line for the API reference */
  readonly summary: string;
  readonly body?: B;
  readonly query?: Q;
  readonly params?: P;
  /**
   * the call answers a file (CSV export, avatar), a redirect or an event stream (`text/event-stream`)
   * instead of the `{code,msg,data}` envelope
   */
  readonly raw?: "file" | "redirect" | "text" | "multipart" | "stream";
  /** the envelope's `data` as a schema (answers.ts), where written: documents and checks it */
  readonly answer?: z.ZodType;
  /** type only: the envelope's `data` */
  readonly __response?: R;
}

/**
 * Declares an endpoint answering `R`: `endpoint<OrderView>()({ method, url, access, … })`. Curried
 * so that `R` is written while the schemas' types are inferred.
 */
export const endpoint =
  <R = null>() =>
  <B extends Schema = undefined, Q extends Schema = undefined, P extends Schema = undefined>(def: {
    method: HttpMethod;
    url: string;
    access: Access;
    scope?: Scope;
    summary: string;
    body?: B;
    query?: Q;
    params?: P;
    raw?: Endpoint["raw"];
    /** must produce R: a schema that leaves out or mistypes a field of R does not compile */
    answer?: z.ZodType<R>;
  }): Endpoint<R, B, Q, P> =>
    def;

/** What the server's handler receives: a schema's parsed output, or undefined where there is none. */
export type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a caller sends: a schema's input. */
export type Input<S> = S extends z.ZodType ? z.input<S> : undefined;
/** The `data` an endpoint answers. */
export type ResponseOf<E> = E extends Endpoint<infer R, Schema, Schema, Schema> ? R : never;

/** A caller's input for an endpoint: body, query and path params where it has them. */
export type CallInput<E> =
  E extends Endpoint<unknown, infer B, infer Q, infer P>
    ? (B extends z.ZodType
        ? undefined extends z.input<B>
          ? { body?: z.input<B> }
          : { body: z.input<B> }
        : { body?: undefined }) &
        (Q extends z.ZodType ? { query?: Partial<z.input<Q>> } : { query?: undefined }) &
        (P extends z.ZodType ? { params: z.input<P> } : { params?: undefined })
    : never;

/** `/user/order/:trade_id` + `{trade_id: "X"}` → `/user/order/X` (each value URI-encoded). */
export function fillPath(url: string, params?: Record<string, unknown>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === "")
      throw new Error(`${url}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
