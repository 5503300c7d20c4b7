import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

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
    const { method, url } = request;
    const statusCode = reply.statusCode;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const msg = `${method} ${url} ${statusCode} ${responseTime}ms`;
    if (error) {
      reply.log.error({ method, url, statusCode, responseTime, err: error }, msg);
      return;
    }
    const level = url.startsWith("/api/") || statusCode >= 400 ? "info" : "debug";
    reply.log[level]({ method, url, statusCode, responseTime }, msg);
  }
}
