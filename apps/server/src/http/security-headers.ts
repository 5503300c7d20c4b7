import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyReply } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * false: this route's answers carry no security headers. Only for routes no browser reads
     * (the frps plugin endpoint, called for every visitor connection).
     */
    securityHeaders?: boolean;
  }
  interface FastifyReply {
    /** Helmet's full set of security headers, for an /api route that answers with an HTML page. */
    pageHeaders(): FastifyReply;
  }
}

/**
 * What helmet does to a response with these options: the headers it sets, in order, and the ones
 * it removes. Its middleware is run once against a recording response; without nonces (Burrow
 * uses none) the result does not depend on the request.
 */
export function helmetHeaders(options: HelmetOptions): { set: [string, string][]; remove: string[] } {
  const set: [string, string][] = [];
  const remove: string[] = [];
  const res = {
    setHeader: (name: string, value: unknown) => set.push([name, String(value)]),
    removeHeader: (name: string) => remove.push(name),
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return { set, remove };
}

/**
 * What a JSON answer needs of those (the console's API): it is never rendered as a page, so the
 * page's CSP, frame and cross-origin policies only lengthen it — half of the CPU of a cached
 * authenticated call went into setting and writing them. A JSON answer opened in a tab is
 * refused everything (`default-src 'none'`) and framing; it is never sniffed as something else,
 * and HSTS still rides on it.
 */
export function jsonHeaders(page: [string, string][]): [string, string][] {
  const keep = new Set(["x-content-type-options", "referrer-policy", "strict-transport-security", "x-frame-options"]);
  return [
    ...page.filter(([name]) => keep.has(name.toLowerCase())),
    ["Content-Security-Policy", "default-src 'none';frame-ancestors 'none'"],
  ];
}

/**
 * Helmet's full set on pages and the web app's files, the short set of jsonHeaders on everything
 * under /api (JSON, and files such as avatars, attachments and PDFs, which the stricter CSP suits
 * better), none where a route says `securityHeaders: false`; an /api route that renders an HTML
 * page (the API reference, the sandbox cashier) calls `reply.pageHeaders()`. Computed once at
 * start-up and set in one synchronous hook: @fastify/helmet built helmet's middleware again on
 * every request (parsing the CSP directives, in two async hooks), and even the computed full set
 * was half of a cached API call's CPU.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const { set, remove } = helmetHeaders(options);
  const json = jsonHeaders(set);
  app.addHook("onRequest", (req, reply, done) => {
    if (req.routeOptions.config.securityHeaders !== false) {
      const res = reply.raw;
      for (const name of remove) res.removeHeader(name);
      for (const [name, value] of req.url.startsWith("/api/") ? json : set) res.setHeader(name, value);
    }
    done();
  });
  app.decorateReply("pageHeaders", function (this: FastifyReply) {
    for (const [name, value] of set) this.raw.setHeader(name, value);
    return this;
  });
}
