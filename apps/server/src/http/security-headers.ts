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
 * Helmet's headers on every answer (pages, assets, API, errors), computed once at start-up.
 * @fastify/helmet built helmet's middleware again on every request (parsing the CSP directives,
 * in two async hooks); this is a synchronous hook that sets a dozen fixed strings.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const { set, remove } = helmetHeaders(options);
  app.addHook("onRequest", (req, reply, done) => {
    if (req.routeOptions.config.securityHeaders !== false) {
      const res = reply.raw;
      for (const name of remove) res.removeHeader(name);
      for (const [name, value] of set) res.setHeader(name, value);
    }
    done();
  });
}
