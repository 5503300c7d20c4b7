import { ErrorCode } from "@burrow/contract";
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from "fastify";
import { ZodError } from "zod";
import { isUniqueViolation } from "../db/errors";
import { AppError } from "../shared/errors";

/** Formats a zod issue path as the field name the client sent ("body.plan.fee" → "plan.fee"). */
export function zodMessage(err: ZodError): { field: string; message: string } {
  const issue = err.issues[0];
  const field = issue?.path.map(String).join(".") || "body";
  return { field, message: `${field}: ${issue?.message ?? "参数错误"}` };
}

/** The status and `{code,msg,data}` envelope an error is answered with; never leaks internals. */
export function errorAnswer(
  err: unknown,
  log: Pick<FastifyBaseLogger, "error">,
): { status: number; body: ErrorEnvelope } {
  if (err instanceof AppError)
    return {
      status: err.status,
      body: { code: err.code, msg: err.message, data: err.data ?? (err.field ? { field: err.field } : null) },
    };
  if (err instanceof ZodError) {
    const { field, message } = zodMessage(err);
    return { status: 400, body: { code: ErrorCode.InvalidParams, msg: message, data: { field } } };
  }
  if (isUniqueViolation(err))
    return { status: 409, body: { code: ErrorCode.LocalDuplicated, msg: "记录已存在", data: null } };
  // Fastify's own client errors: bad JSON, wrong content type, body too large, multipart limits.
  const status = (err as Partial<FastifyError>).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = status === 429 ? ErrorCode.RateLimited : ErrorCode.InvalidParams;
    return { status: status === 429 ? 429 : 400, body: { code, msg: `body: ${(err as Error).message}`, data: null } };
  }
  log.error({ err }, "unhandled error");
  return { status: 500, body: { code: ErrorCode.Internal, msg: "服务器内部错误", data: null } };
}

interface ErrorEnvelope {
  code: number;
  msg: string;
  /** `{field}` for a field's error, what the error carries (AppError.data), else null */
  data: unknown;
}

/** Maps every error to its answer (errorAnswer) with a meaningful HTTP status. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const a = errorAnswer(err, req.log);
    return reply.status(a.status).send(a.body);
  });
}

/**
 * The one not-found handler: unknown API paths (and any non-GET or file-like path) get a JSON 404;
 * with the built web app present, other GETs get its index.html (history fallback).
 */
export function registerNotFound(app: FastifyInstance, spaIndexHtml?: Buffer): void {
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split("?")[0];
    const isPage = req.method === "GET" && !pathname.startsWith("/api/") && !/\.[a-z0-9]+$/i.test(pathname);
    if (spaIndexHtml && isPage) return reply.header("cache-control", "no-cache").type("text/html").send(spaIndexHtml);
    return reply
      .status(404)
      .send({ code: ErrorCode.NotFound, msg: `接口不存在: ${req.method} ${pathname}`, data: null });
  });
}
