import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import type { Logger } from "pino";

/** The frps plugin's address carries the node's secret: logged as `/api/frp/plugin/<id>/***`. */
const PLUGIN_SECRET = /^(\/api\/frp\/plugin\/[^/?]*\/)[^/?]*/;
/**
 * An installer's address carries the customer's launch token: logged with *** in its place, wherever
 * `/launch/` stands in the path and however it is spelt (`//launch/`, `/./launch/`, `/%6caunch/`,
 * absolute form, a proxy's path prefix: review R1 F5), so such a URL is logged decoded.
 */
const LAUNCH_TOKEN = /(\/launch\/)[^/?#]*/gi;
function decoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
export const loggedUrl = (url: string): string => {
  const plain = url.replace(PLUGIN_SECRET, "$1***");
  const d = decoded(plain);
  return /\/launch\//i.test(d) ? d.replace(LAUNCH_TOKEN, "$1***") : plain;
};

/**
 * One line per request, when it is answered (Fastify's default is two: received, completed):
 * `GET /api/user/userInfo 200 3.1ms`, with the same fields structured for JSON readers. The web
 * app's files (fingerprinted, cached for a year, dozens per page load) are at debug unless they
 * fail: at info they would bury the API's lines and the start banner.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const { method } = request;
    const statusCode = reply.statusCode;
    const level = error ? "error" : request.url.startsWith("/api/") || statusCode >= 400 ? "info" : "debug";
    // Nothing is built for a line the route's level drops (the frps plugin's, at warn: every call).
    if (!(reply.log as Logger).isLevelEnabled(level)) return;
    const url = loggedUrl(request.url);
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const msg = `${method} ${url} ${statusCode} ${responseTime}ms`;
    if (error) {
      reply.log.error({ method, url, statusCode, responseTime, err: error }, msg);
      return;
    }
    reply.log[level]({ method, url, statusCode, responseTime }, msg);
  }
}
