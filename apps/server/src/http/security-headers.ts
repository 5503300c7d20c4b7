import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * false: this route's answers carry no security headers. Only for routes no browser reads
     * (the frps plugin endpoint, called for every visitor connection).
     */
    securityHeaders?: boolean;
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
 * The short set of jsonHeaders on every answer from the start (so that a hijacked stream, the
 * assistant's event stream, has it too), and helmet's full set over it on every answer that is
 * not JSON (pages, assets, the pay pages), once the type is known; computed once at start-up.
 * @fastify/helmet built helmet's middleware again on every request (parsing the CSP directives,
 * in two async hooks); these are synchronous hooks that set fixed strings.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const { set, remove } = helmetHeaders(options);
  const json = jsonHeaders(set);
  app.addHook("onRequest", (req, reply, done) => {
    if (req.routeOptions.config.securityHeaders !== false) {
      const res = reply.raw;
      for (const name of remove) res.removeHeader(name);
      for (const [name, value] of json) res.setHeader(name, value);
    }
    done();
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    const type = reply.getHeader("content-type");
    if (
      req.routeOptions.config.securityHeaders !== false &&
      !(typeof type === "string" && type.startsWith("application/json"))
    ) {
      for (const [name, value] of set) reply.raw.setHeader(name, value);
    }
    done(null, payload);
  });
}
