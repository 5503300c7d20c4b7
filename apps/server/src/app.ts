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
import { installAnswerCheck } from "./http/answers";
import { registerErrorHandler, registerNotFound } from "./http/error-handler";
import { opsRoutes } from "./http/ops";
import { OneLineRequestLog } from "./http/request-log";
import { registerSecurityHeaders } from "./http/security-headers";
import { affiliateModule } from "./modules/affiliate/affiliate.module";
import { agentsModule } from "./modules/agents/agents.module";
import { apidocsModule } from "./modules/apidocs/apidocs.module";
import { apitokensModule } from "./modules/apitokens/apitokens.module";
import { assistantModule } from "./modules/assistant/assistant.module";
import { auditModule } from "./modules/audit/audit.module";
import { authModule } from "./modules/auth/auth.module";
import { passwordWork } from "./modules/auth/passwords";
import { SessionCache } from "./modules/auth/session-cache";
import { createSmsDriver, type SmsDriver } from "./modules/auth/sms";
import { autopayModule } from "./modules/autopay/autopay.module";
import { dashboardModule } from "./modules/dashboard/dashboard.module";
import { domainGate } from "./modules/domains/domain-gate";
import { domainsModule } from "./modules/domains/domains.module";
import { downloadsModule } from "./modules/downloads/downloads.module";
import { frpModule } from "./modules/frp/frp.module";
import { homeModule } from "./modules/home/home.module";
import { invoicesModule } from "./modules/invoices/invoices.module";
import { launchModule } from "./modules/launch/launch.module";
import { leavingModule } from "./modules/leaving/leaving.module";
import { marketingModule } from "./modules/marketing/marketing.module";
import { menuModule } from "./modules/menu/menu.module";
import { nodesModule } from "./modules/nodes/nodes.module";
import { noticesModule } from "./modules/notices/notices.module";
import { oidcModule } from "./modules/oidc/oidc.module";
import { ordersModule } from "./modules/orders/orders.module";
import { outboxModule } from "./modules/outbox/outbox.module";
import { overviewModule } from "./modules/overview/overview.module";
import { buildPayUrl, gatewayKeys } from "./modules/payments/epay";
import { paymentsModule } from "./modules/payments/payments.module";
import { plansModule } from "./modules/plans/plans.module";
import { reachModule } from "./modules/reach/reach.module";
import { settingsModule } from "./modules/settings/settings.module";
import { siteModule } from "./modules/site/site.module";
import { sslModule } from "./modules/ssl/ssl.module";
import { storeModule } from "./modules/store/store.module";
import { subscriptionsModule } from "./modules/subscriptions/subscriptions.module";
import { ticketsModule } from "./modules/tickets/tickets.module";
import { trafficModule } from "./modules/traffic/traffic.module";
import { trafficSums } from "./modules/traffic/traffic.service";
import { TrafficCache } from "./modules/traffic/traffic-cache";
import { tunnelsModule } from "./modules/tunnels/tunnels.module";
import { uptimeModule } from "./modules/uptime/uptime.module";
import { usermgrModule } from "./modules/usermgr/usermgr.module";
import { UserInfoCache } from "./modules/users/user-cache";
import { usersModule } from "./modules/users/users.module";
import { verifyModule } from "./modules/verify/verify.module";
import { webhooksModule } from "./modules/webhooks/webhooks.module";
import { seedFreshInstall } from "./seed";
import { Authenticator } from "./shared/auth";
import { createEventBus } from "./shared/events";
import { randomToken } from "./shared/ids";
import { startJobs } from "./shared/jobs";
import { createLogger } from "./shared/logger";
import { createMetrics } from "./shared/metrics";
import { type ModuleManifest, runsInBackground } from "./shared/module";
import { memoryRateLimiter, redisRateLimiter } from "./shared/rate-limit";
import { getSetting, setSetting } from "./shared/settings";

export interface BuildOptions {
  /** an already-open database (tests); otherwise opened from config */
  db?: Kysely<DB>;
  sms?: SmsDriver;
  logger?: Logger;
  /** test only: parse every successful answer with its endpoint's answer schema (http/answers.ts) */
  checkAnswers?: boolean;
}

/**
 * Every module of the app (shared/module.ts), in the order their routes are registered under /api
 * and their waiting counters listed on the overview. A module is added here and nowhere else.
 */
export const MODULES: readonly ModuleManifest[] = [
  siteModule,
  settingsModule,
  authModule,
  apitokensModule,
  oidcModule,
  usersModule,
  dashboardModule,
  menuModule,
  usermgrModule,
  overviewModule,
  auditModule,
  nodesModule,
  tunnelsModule,
  trafficModule,
  downloadsModule,
  launchModule,
  homeModule,
  frpModule,
  agentsModule,
  plansModule,
  storeModule,
  ordersModule,
  autopayModule,
  subscriptionsModule,
  marketingModule,
  paymentsModule,
  ticketsModule,
  verifyModule,
  domainsModule,
  affiliateModule,
  assistantModule,
  invoicesModule,
  sslModule,
  outboxModule,
  noticesModule,
  webhooksModule,
  uptimeModule,
  reachModule,
  leavingModule,
  apidocsModule,
];

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
    orderHooks: MODULES.flatMap((m) => m.orderHooks ?? []),
    nodeDeletedHooks: MODULES.flatMap((m) => m.nodeDeletedHooks ?? []),
    tunnelStartGuards: MODULES.flatMap((m) => m.tunnelStartGuards ?? []),
    publishGuards: MODULES.flatMap((m) => m.publishGuards ?? []),
    eventHandlers: MODULES.flatMap((m) => m.eventHandlers ?? []),
    metrics: createMetrics(),
    domains: domainGate(config),
    modules: MODULES,
    state: new Map(),
  };
  for (const m of MODULES) for (const s of m.state ?? []) s.init(ctx);
  for (const m of MODULES) m.setup?.(ctx);
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
  for (const m of MODULES) m.server?.(app, ctx);
  registerErrorHandler(app);
  if (opts.checkAnswers) installAnswerCheck(app);
  registerSecurityHeaders(app, helmetOptions(config));
  opsRoutes(app, ctx);
  await app.register(
    async (api) => {
      for (const m of MODULES) m.routes?.(api, ctx);
    },
    { prefix: "/api" },
  );
  await serveWeb(app, config.WEB_DIST);
  // Background work, by the one rule of shared/module.ts (off under NODE_ENV=test unless the
  // module's switch says otherwise; tests call the jobs directly). Jobs are lease-guarded, so
  // several processes may run them.
  const background = MODULES.filter((m) => runsInBackground(m, config));
  const jobs = background.flatMap((m) => m.jobs?.(ctx) ?? []);
  if (jobs.length) app.addHook("preClose", startJobs(ctx, jobs));
  app.addHook("onReady", async () => {
    for (const m of background) m.start?.(ctx);
  });
  // While the server drains, requests in flight still run: stop what was started (no new poll).
  app.addHook("preClose", async () => {
    for (const m of MODULES) await m.stop?.(ctx);
  });
  // Runs once every request in flight has been answered (Fastify stops accepting first): what the
  // modules still hold (the frp writer's last rows), then the connections. SIGTERM drains this
  // way (main.ts, docs/operations.md).
  app.addHook("onClose", async () => {
    for (const m of MODULES) await m.drain?.(ctx);
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
