import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { AppContext } from "../context";

/** How long a readiness check waits for the database or Redis before calling it down. */
const READY_TIMEOUT_MS = 2_000;

const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer in ${ms} ms`)), ms).unref(),
    ),
  ]);

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * What each dependency answered: "ok" or "down". The error itself (addresses, user names) goes to
 * the log only: /readyz answers anyone who can reach the port.
 */
export async function readiness(ctx: AppContext): Promise<{ ok: boolean; checks: Record<string, string> }> {
  const checks: Record<string, string> = {};
  const probes: [string, () => Promise<unknown>][] = [["database", () => sql`select 1`.execute(ctx.db)]];
  const redis = ctx.redis;
  if (redis) probes.push(["redis", () => redis.ping()]);
  await Promise.all(
    probes.map(async ([name, probe]) => {
      try {
        await withTimeout(probe(), READY_TIMEOUT_MS, name);
        checks[name] = "ok";
      } catch (err) {
        checks[name] = "down";
        ctx.log.warn({ err, dependency: name }, "readyz: a dependency does not answer");
      }
    }),
  );
  return { ok: Object.values(checks).every((v) => v === "ok"), checks };
}

/**
 * Operations endpoints outside the API (no envelope, not in the contract; docs/operations.md):
 * - `GET /healthz`: liveness, the process answers (no dependency checked: a restart would not fix
 *   a database outage);
 * - `GET /readyz`: readiness, the database (and Redis when configured) answer; 503 naming the
 *   one that failed otherwise (load balancers and compose health checks);
 * - `GET /metrics`: Prometheus text, only with `Authorization: Bearer <METRICS_TOKEN>`; 404 when
 *   METRICS_TOKEN is unset (off), 401 for a missing or wrong token.
 * The request counter and latency histogram are fed here too, by route pattern.
 */
export function opsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { metrics } = ctx;
  app.addHook("onResponse", (req, reply, done) => {
    const pattern = req.routeOptions.url;
    // The web app's files are one route each: counted together, so the label set stays small.
    const route =
      pattern === undefined
        ? "(unmatched)"
        : pattern.startsWith("/api/") || !pattern.includes(".")
          ? pattern
          : "(static)";
    metrics.request(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get("/healthz", { logLevel: "warn" }, async (_req, reply) =>
    reply.header("cache-control", "no-store").send({ status: "ok" }),
  );

  app.get("/readyz", { logLevel: "warn" }, async (_req, reply) => {
    const r = await readiness(ctx);
    const failed = Object.keys(r.checks).filter((k) => r.checks[k] !== "ok");
    if (!r.ok) ctx.log.warn({ checks: r.checks }, `not ready: ${failed.join(", ")} unreachable`);
    return reply
      .status(r.ok ? 200 : 503)
      .header("cache-control", "no-store")
      .send({ status: r.ok ? "ok" : "unavailable", ...(failed.length > 0 && { failed }), checks: r.checks });
  });

  app.get("/metrics", { logLevel: "warn" }, async (req, reply) => {
    const token = ctx.config.METRICS_TOKEN;
    if (!token)
      return reply.status(404).send({ code: 404, msg: "metrics are off (METRICS_TOKEN is not set)", data: null });
    if (!tokenMatches(req.headers.authorization, token))
      return reply
        .status(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .send({ code: 401, msg: "metrics need Authorization: Bearer <METRICS_TOKEN>", data: null });
    const text = await metrics.registry.metrics();
    return reply.header("cache-control", "no-store").type(metrics.registry.contentType).send(text);
  });
}
