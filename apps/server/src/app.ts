import { createSecretKey, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { HelmetOptions } from "helmet";
import { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { createDb } from "./db/database";
import { migrateToLatest } from "./db/migrate";
import type { DB } from "./db/schema";
import { registerErrorHandler, registerNotFound } from "./http/error-handler";
import { opsRoutes } from "./http/ops";
import { OneLineRequestLog } from "./http/request-log";
import { registerSecurityHeaders } from "./http/security-headers";
import { affiliateRoutes } from "./modules/affiliate/affiliate.routes";
import { affiliateJobs, affiliateOrderHook } from "./modules/affiliate/affiliate.service";
import { apidocsRoutes } from "./modules/apidocs/apidocs.routes";
import { assistantRoutes } from "./modules/assistant/assistant.routes";
import { auditRoutes } from "./modules/audit/audit";
import { authRoutes } from "./modules/auth/auth.routes";
import { passwordWork } from "./modules/auth/passwords";
import { SessionCache } from "./modules/auth/session-cache";
import { sessionCredential } from "./modules/auth/sessions";
import { createSmsDriver, type SmsDriver } from "./modules/auth/sms";
import { dashboardRoutes } from "./modules/dashboard/dashboard.routes";
import { domainGate } from "./modules/domains/domain-gate";
import { domainJobs, domainsRoutes } from "./modules/domains/domains.routes";
import { downloadsRoutes } from "./modules/downloads/downloads.routes";
import { forgetNode } from "./modules/frp/forget-node";
import { flushFrp, frpRoutes } from "./modules/frp/frp.routes";
import { installPluginFastPath } from "./modules/frp/plugin-http";
import { homeRoutes } from "./modules/home/home.routes";
import { invoicesRoutes } from "./modules/invoices/invoices.routes";
import { invoiceOrderHook } from "./modules/invoices/invoices.service";
import { marketingRoutes } from "./modules/marketing/marketing.routes";
import { menuRoutes } from "./modules/menu/menu";
import { nodesRoutes } from "./modules/nodes/nodes.routes";
import { oidcRoutes } from "./modules/oidc/oidc.routes";
import { storeJobs } from "./modules/orders/jobs";
import { ordersRoutes } from "./modules/orders/orders.routes";
import { ordersByStatus } from "./modules/orders/stats";
import { outboxRoutes } from "./modules/outbox/outbox.routes";
import { buildPayUrl, gatewayKeys } from "./modules/payments/epay";
import { paymentsRoutes } from "./modules/payments/payments.routes";
import { plansRoutes } from "./modules/plans/plans.routes";
import { siteRoutes } from "./modules/site/site.routes";
import { sslJobs, sslRoutes } from "./modules/ssl/ssl.routes";
import { subscriptionsRoutes } from "./modules/subscriptions/subscriptions.routes";
import { ticketJobs } from "./modules/tickets/jobs";
import { ticketsRoutes } from "./modules/tickets/tickets.routes";
import { trafficRoutes } from "./modules/traffic/traffic.routes";
import { trafficSums } from "./modules/traffic/traffic.service";
import { TrafficCache } from "./modules/traffic/traffic-cache";
import { releaseNodeHolds } from "./modules/tunnels/sessions";
import { tunnelsRoutes } from "./modules/tunnels/tunnels.routes";
import { usermgrRoutes } from "./modules/usermgr/usermgr.routes";
import { UserInfoCache } from "./modules/users/user-cache";
import { usersRoutes } from "./modules/users/users.routes";
import { verifyRoutes } from "./modules/verify/verify.routes";
import { verifyJobs } from "./modules/verify/verify.service";
import { seedFreshInstall } from "./seed";
import { Authenticator } from "./shared/auth";
import { createEventBus } from "./shared/events";
import { randomToken } from "./shared/ids";
import { startJobs } from "./shared/jobs";
import { createLogger } from "./shared/logger";
import { createMetrics } from "./shared/metrics";
import { memoryRateLimiter, redisRateLimiter } from "./shared/rate-limit";
import { getSetting, setSetting } from "./shared/settings";

export interface BuildOptions {
  /** an already-open database (tests); otherwise opened from config */
  db?: Kysely<DB>;
  sms?: SmsDriver;
  logger?: Logger;
}

/** Every module's routes, registered under /api. Later modules add one line here. */
function registerModules(api: FastifyInstance, ctx: AppContext): void {
  siteRoutes(api, ctx);
  authRoutes(api, ctx);
  oidcRoutes(api, ctx);
  usersRoutes(api, ctx);
  dashboardRoutes(api, ctx);
  menuRoutes(api, ctx);
  usermgrRoutes(api, ctx);
  auditRoutes(api, ctx);
  nodesRoutes(api, ctx);
  tunnelsRoutes(api, ctx);
  trafficRoutes(api, ctx);
  downloadsRoutes(api, ctx);
  homeRoutes(api, ctx);
  frpRoutes(api, ctx);
  plansRoutes(api, ctx);
  ordersRoutes(api, ctx);
  subscriptionsRoutes(api, ctx);
  marketingRoutes(api, ctx);
  paymentsRoutes(api, ctx);
  ticketsRoutes(api, ctx);
  verifyRoutes(api, ctx);
  domainsRoutes(api, ctx);
  affiliateRoutes(api, ctx);
  assistantRoutes(api, ctx);
  invoicesRoutes(api, ctx);
  sslRoutes(api, ctx);
  outboxRoutes(api, ctx);
  apidocsRoutes(api, ctx);
}

/** The HS256 key, imported once: handed raw bytes, jose would import them again on every call. */
async function loadJwtKey(db: Kysely<DB>, config: Config): Promise<KeyObject> {
  let secret = config.JWT_SECRET ?? (await getSetting(db, "jwt_secret"));
  if (!secret) {
    secret = randomToken(48);
    await setSetting(db, "jwt_secret", secret);
  }
  return createSecretKey(Buffer.from(secret, "utf8"));
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count trusts that many addresses counted from the
 * socket (Express semantics: with 1, req.ip is the address the proxy appended, whatever the client
 * put before it); Fastify itself turns a number into "trust nothing", hence the function.
 */
export function trustProxyOption(
  v: Config["TRUST_PROXY"],
): false | string[] | ((addr: string, hop: number) => boolean) {
  return typeof v === "number" ? (_addr, hop) => hop < v : v;
}

/**
 * Security headers on every answer (pages, assets, API, errors). The CSP is what the built web
 * app needs and no more: scripts only from this origin (index.html has no inline script);
 * styles also inline, because antd's CSS-in-JS inserts <style> elements at runtime (and the
 * sandbox pay page has one); images also data:/blob: (antd icons, upload previews). Nothing may
 * frame the console (clickjacking). HSTS only when PUBLIC_URL is https, or plain-http installs
 * would be told to switch to a TLS they do not have.
 */
export function helmetOptions(config: Config): HelmetOptions {
  const https = config.PUBLIC_URL?.startsWith("https://") ?? false;
  const publicOrigin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : undefined;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        // The sandbox pay page's form redirects to the return URL, which is built from PUBLIC_URL.
        formAction: ["'self'", ...(publicOrigin ? [publicOrigin] : [])],
        frameAncestors: ["'none'"],
        ...(https && { upgradeInsecureRequests: [] }),
      },
    },
    frameguard: { action: "deny" },
    // Full URLs (pay results carry order numbers in the query) stay on this origin.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
  };
}

/** The largest request body Fastify (and the plugin fast path) reads: 1 MB. */
const BODY_LIMIT = 1024 * 1024;

/** Builds the whole server (migrated, seeded, routes registered) without listening: testable. */
export async function buildApp(
  config: Config,
  opts: BuildOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; signIn?: string[] }> {
  const log = opts.logger ?? createLogger(config.LOG_LEVEL);
  const db =
    opts.db ??
    createDb({
      databaseUrl: config.DATABASE_URL,
      sqliteFile: path.resolve(config.DATA_DIR, "burrow.sqlite"),
      prepare: config.PG_PREPARED_STATEMENTS,
    });
  const migrated = await migrateToLatest(db);
  // An upgrade says what it did; a new database's migrations are just the install.
  if (migrated.from && migrated.applied.length > 0) log.info(migrated, "database migrated");
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  // Without a listener ioredis prints every failed reconnect: one warning per outage, /readyz says the rest.
  let redisLastError = 0;
  redis?.on("error", (err) => {
    if (Date.now() - redisLastError > 60_000) log.warn({ err: err.message }, "redis unreachable");
    redisLastError = Date.now();
  });
  const events = createEventBus(redis);
  const jwtKey = await loadJwtKey(db, config);
  const ctx: AppContext = {
    config,
    db,
    log,
    redis,
    events,
    limiter: redis ? redisRateLimiter(redis) : memoryRateLimiter(),
    sms: opts.sms ?? createSmsDriver(config),
    passwords: passwordWork({ concurrency: config.ARGON2_CONCURRENCY, queue: config.ARGON2_QUEUE }),
    payments: { payUrl: (order) => buildPayUrl(config, order) },
    jwtKey,
    sessions: new SessionCache(db, events, jwtKey),
    auth: new Authenticator(),
    userInfo: new UserInfoCache(db, events),
    traffic: new TrafficCache((key) => trafficSums(db, key), events),
    orderHooks: [],
    eventHandlers: [],
    nodeDeletedHooks: [forgetNode, releaseNodeHolds],
    metrics: createMetrics(),
    domains: domainGate(config),
  };
  ctx.metrics.gauge("burrow_orders", "orders by payment state (whole database)", "state", () => ordersByStatus(db));
  ctx.orderHooks.push(affiliateOrderHook);
  ctx.orderHooks.push(invoiceOrderHook);
  // Credential kinds: the auth module's session JWT (API tokens register theirs beside it).
  ctx.auth.register(sessionCredential(ctx));
  const signIn = await seedFreshInstall(ctx);
  if (config.NODE_ENV !== "test" && gatewayKeys(config).kind === "sandbox")
    log.warn(
      "payments: the SANDBOX gateway is active — any order can be paid without money; configure EPAY_URL/EPAY_PID/EPAY_KEY for real payments",
    );

  const app: FastifyInstance = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT,
    // A request (headers and body) must arrive within a minute: a slow client holds no socket and
    // body buffer for ever (Fastify's default is no limit; nginx in front has its own).
    requestTimeout: 60_000,
    logController: new OneLineRequestLog(),
  });
  // First of the preClose hooks: no plugin call is taken after Fastify starts refusing (503).
  installPluginFastPath(app, ctx, BODY_LIMIT);
  registerErrorHandler(app);
  registerSecurityHeaders(app, helmetOptions(config));
  opsRoutes(app, ctx);
  await app.register(
    async (api) => {
      registerModules(api, ctx);
    },
    { prefix: "/api" },
  );
  await serveWeb(app, config.WEB_DIST);
  // Background jobs (lease-guarded, so several processes may run them); tests call them directly.
  const jobs = [
    ...(config.NODE_ENV !== "test"
      ? [...storeJobs(config.JOBS_INTERVAL * 1000), ...domainJobs, ...affiliateJobs, ...verifyJobs, ...ticketJobs]
      : []),
    ...sslJobs(ctx),
  ];
  if (jobs.length) {
    const stopJobs = startJobs(ctx, jobs);
    app.addHook("preClose", stopJobs);
  }
  // Runs once every request in flight has been answered (Fastify stops accepting first): the frp
  // writer's last rows, then the connections. SIGTERM drains this way (main.ts, docs/operations.md).
  app.addHook("onClose", async () => {
    await flushFrp(ctx);
    await ctx.events.close();
    await db.destroy();
    redis?.disconnect();
  });
  return { app, ctx, signIn };
}

/** Serves the built single-page app (when built) with history fallback; /api stays JSON. */
async function serveWeb(app: FastifyInstance, dist: string): Promise<void> {
  const index = path.join(dist, "index.html");
  if (!fs.existsSync(index)) return registerNotFound(app);
  await app.register(fastifyStatic, { root: dist, wildcard: false, index: false, maxAge: "1y", immutable: true });
  registerNotFound(app, fs.readFileSync(index));
}
