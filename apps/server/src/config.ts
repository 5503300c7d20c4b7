import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const bool = z.preprocess(
  (v) => (typeof v === "string" ? ["1", "true", "yes"].includes(v.toLowerCase()) : v),
  z.boolean(),
);
const blankToUndef = (v: unknown) => (v === "" ? undefined : v);

/** proxy-addr's names, an address, or an address/prefix */
const isProxyAddress = (s: string): boolean => {
  if (["loopback", "linklocal", "uniquelocal"].includes(s)) return true;
  const [addr, prefix, ...rest] = s.split("/");
  const family = net.isIP(addr);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

/**
 * TRUST_PROXY: `false` (default), a hop count (`true` = 1), or a comma-separated list of the
 * proxies' addresses/CIDRs. Never "trust every hop": then the client's own X-Forwarded-For
 * would decide its address, and with it the per-address limits and login history.
 */
const trustProxy = z.preprocess(
  (v) => {
    if (v === undefined || v === "" || v === false) return false;
    if (v === true) return 1;
    if (typeof v !== "string") return v;
    const s = v.trim().toLowerCase();
    if (["false", "no", "off", "0"].includes(s)) return false;
    if (["true", "yes", "on"].includes(s)) return 1;
    if (/^\d+$/.test(s)) return Number(s);
    return s.split(",").map((x) => x.trim());
  },
  z.union(
    [
      z.literal(false),
      z.number().int().min(1).max(16),
      z
        .array(
          z
            .string()
            .refine(isProxyAddress, "not an address or CIDR (TRUST_PROXY: false, a hop count, or addresses/CIDRs)"),
        )
        .min(1),
    ],
    { error: "must be false, a hop count (true = 1), or a comma-separated list of proxy addresses/CIDRs" },
  ),
);

/** "1.1.1.1", "127.0.0.1:8053", "[::1]:53" */
const isDnsServer = (s: string): boolean => {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return net.isIPv6(s);
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return net.isIP(m[1]) !== 0 && port >= 1 && port <= 65535;
};
const dnsServers = z.preprocess(
  (v) =>
    typeof v === "string" && v.trim() !== ""
      ? v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean)
      : undefined,
  z.array(z.string().refine(isDnsServer, "not a resolver address (ip, ip:port or [ipv6]:port)")).min(1).optional(),
);

/** Every environment variable Burrow reads, with its default (README "Configuration" lists them). */
export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** public base URL of the console, used in links sent to frps and payment gateways */
    PUBLIC_URL: z.preprocess(
      blankToUndef,
      z
        .url()
        .refine((u) => {
          // It is written into signed gateway parameters and frps configs: an origin with an
          // optional path, nothing that could smuggle in another parameter or a credential.
          const url = new URL(u);
          return (
            (url.protocol === "https:" || url.protocol === "http:") &&
            !url.username &&
            !url.password &&
            !url.search &&
            !url.hash &&
            !/[&=?#\s]/.test(u)
          );
        }, "must be an http(s) origin with an optional path, without query, fragment or credentials")
        .optional(),
    ),
    DATA_DIR: z.string().default("./data"),
    /** uploads are refused while DATA_DIR's disk has less free space than this (MB), so they never fill it */
    UPLOAD_MIN_FREE_MB: z.coerce.number().int().min(0).default(1024),
    DATABASE_URL: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL (leave unset for SQLite)")
        .optional(),
    ),
    /**
     * PostgreSQL statements run as named prepared statements (plans kept, src/db/database.ts).
     * Turn off behind a pooler that cannot carry them (PgBouncer in transaction mode before 1.21).
     */
    PG_PREPARED_STATEMENTS: z.preprocess(blankToUndef, bool.default(true)),
    REDIS_URL: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^rediss?:\/\//, "must be a redis:// URL")
        .optional(),
    ),
    JWT_SECRET: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /** token lifetime in seconds */
    JWT_TTL: z.coerce
      .number()
      .int()
      .min(60)
      .default(7 * 24 * 3600),
    ADMIN_PHONE: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^1[3-9]\d{9}$/, "must be a mobile number")
        .optional(),
    ),
    ADMIN_PASSWORD: z.preprocess(blankToUndef, z.string().min(8, "must be at least 8 characters").optional()),
    SMS_DRIVER: z.enum(["console", "http"]).default("console"),
    SMS_HTTP_URL: z.preprocess(blankToUndef, z.url().optional()),
    SMS_HTTP_TOKEN: z.string().default(""),
    /** SMS codes one client address may request per hour (raise it for test rigs behind one address) */
    SMS_IP_HOURLY_LIMIT: z.coerce.number().int().min(1).default(30),
    /** notice e-mail (docs/notices.md): smtp(s)://user:pass@host:port; unset: no e-mail channel */
    SMTP_URL: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    /** the From of notice e-mail, e.g. "Burrow <noreply@example.com>" */
    MAIL_FROM: z.preprocess(blankToUndef, z.string().max(200).optional()),
    WEB_DIST: z.string().default(path.resolve(import.meta.dirname, "../../web/dist")),
    /** the node agent's bundle the console serves at /download/agent/burrow-agent.mjs (npm run build -w apps/agent) */
    AGENT_BUNDLE: z.string().default(path.resolve(import.meta.dirname, "../../agent/dist/burrow-agent.mjs")),
    TRUST_PROXY: trustProxy,
    /** password hashes (argon2) run at once; further sign-ins wait in a queue of ARGON2_QUEUE, then get 429 */
    ARGON2_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(Math.min(4, os.availableParallelism())),
    ARGON2_QUEUE: z.coerce.number().int().min(0).max(10_000).default(64),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SITE_BRAND: z.string().default("Burrow"),
    SITE_CLOUD_PROVIDER: z.string().default("Burrow Cloud"),
    SITE_POLICE_NO: z.string().default("京公网安备 11010502000000号"),
    SITE_ICP_NO: z.string().default("京ICP备00000000号-1"),
    SITE_LICENSE_NO: z.string().default("B1-00000000"),
    /** daily check-in bonus: a random amount of traffic between these (MB) */
    CHECKIN_MIN_MB: z.coerce.number().int().min(0).default(100),
    CHECKIN_MAX_MB: z.coerce.number().int().min(0).default(1024),
    /** run the frp node poller (default: on, except NODE_ENV=test where tests call pollNode/pollAll) */
    FRP_POLLER: z.preprocess(blankToUndef, bool.optional()),
    /** seconds between two polls of a node's dashboard */
    FRP_POLL_INTERVAL: z.coerce.number().int().min(1).max(3600).default(30),
    /** seconds between two runs of the store's background jobs (closing unpaid orders, expiring subscriptions) */
    JOBS_INTERVAL: z.coerce.number().int().min(1).max(3600).default(60),
    /** run the domain-event dispatcher (wake on commit, the dispatch job); default on, except NODE_ENV=test where tests call dispatchOutbox */
    OUTBOX_DISPATCH: z.preprocess(blankToUndef, bool.optional()),
    /** seconds SIGTERM waits for requests in flight before exiting anyway (keep below systemd's TimeoutStopSec) */
    SHUTDOWN_TIMEOUT: z.coerce.number().int().min(1).max(600).default(10),
    /** bearer token that /metrics (Prometheus) requires; unset: /metrics is off (404) */
    METRICS_TOKEN: z.preprocess(blankToUndef, z.string().min(16, "must be at least 16 characters").optional()),
    /** days of visitor connection rows (NewUserConn) kept */
    FRP_CONN_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
    /** "epay" (a real epay-style gateway) or "sandbox" (built in); unset: sandbox, epay in production */
    PAY_GATEWAY: z.preprocess(blankToUndef, z.enum(["epay", "sandbox"]).optional()),
    /** the gateway's base URL; Burrow redirects to <EPAY_URL>/submit.php */
    EPAY_URL: z.preprocess(blankToUndef, z.url().optional()),
    /** merchant id at the gateway */
    EPAY_PID: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the merchant id")
        .optional(),
    ),
    /** merchant key (MD5 signing secret) */
    EPAY_KEY: z.preprocess(blankToUndef, z.string().min(8, "must be at least 8 characters").optional()),
    /**
     * identity verification: "redirect" (a real provider's page), "manual" (every request waits for
     * an operator's review) or "sandbox" (built in, decided from the name); unset: sandbox, and in
     * production redirect when VERIFY_URL is set, else manual
     */
    VERIFY_PROVIDER: z.preprocess(blankToUndef, z.enum(["redirect", "manual", "sandbox"]).optional()),
    /** the provider's verification page; Burrow redirects the browser there with a signed request */
    VERIFY_URL: z.preprocess(blankToUndef, z.url().optional()),
    /** merchant id at the verification provider */
    VERIFY_MERCHANT_ID: z.preprocess(
      blankToUndef,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the merchant id")
        .optional(),
    ),
    /** HMAC-SHA256 key shared with the verification provider */
    VERIFY_KEY: z.preprocess(blankToUndef, z.string().min(16, "must be at least 16 characters").optional()),
    /** key of the ID-number hash (uniqueness); unset: generated once and kept in settings */
    VERIFY_ID_SECRET: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /**
     * key that encrypts the OpenID Connect providers' client secrets in the database (AES-256-GCM);
     * unset: generated once and kept in settings (then a database copy holds key and secrets together)
     */
    OIDC_SECRET_KEY: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /**
     * key that encrypts the accounts' TOTP secrets in the database (AES-256-GCM); unset: generated
     * once and kept in settings outside production, refused in production (two-factor cannot be enabled)
     */
    MFA_SECRET_KEY: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /**
     * key that encrypts customer webhooks' signing secrets in the database (AES-256-GCM); unset:
     * generated once and kept in settings outside production, refused in production (no endpoint
     * can be added)
     */
    WEBHOOK_SECRET_KEY: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /**
     * lets webhook endpoints be http:// on the loopback (127.0.0.0/8, ::1): for tests and local
     * development only, refused in production (docs/webhooks.md)
     */
    WEBHOOK_ALLOW_LOOPBACK: z.preprocess(blankToUndef, bool.default(false)),
    /** Managers and support staff must sign in with a second factor (those without one enrol first) */
    STAFF_MFA_REQUIRED: z.preprocess(blankToUndef, bool.default(false)),
    /** default of the operator setting "creating a tunnel requires identity verification" */
    VERIFY_REQUIRED_FOR_TUNNELS: z.preprocess(blankToUndef, bool.default(true)),
    /**
     * resolvers for domain verification: a comma-separated list of ip or ip:port ([v6]:port);
     * unset: the system's resolvers
     */
    DNS_SERVERS: dnsServers,
    /** hours a domain whose TXT record vanished keeps serving its tunnels before NewProxy refuses them */
    DOMAIN_GRACE_HOURS: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 90)
      .default(72),
    /** the frpc assistant's OpenAI-compatible API base (…/v1: Burrow posts to <AI_BASE_URL>/chat/completions); unset: not configured */
    AI_BASE_URL: z.preprocess(
      blankToUndef,
      z
        .url()
        .refine((u) => /^https?:$/.test(new URL(u).protocol) && !new URL(u).search && !new URL(u).hash, {
          message: "must be an http(s) URL without query or fragment",
        })
        .optional(),
    ),
    /** Bearer key sent to AI_BASE_URL (never to the browser, never in a prompt) */
    AI_API_KEY: z.string().default(""),
    /** the model name sent with every request */
    AI_MODEL: z.preprocess(blankToUndef, z.string().max(200).optional()),
    /** questions one customer may ask the assistant per day (Asia/Shanghai) */
    AI_DAILY_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
    /** seconds an answer may take in all before it is cut off */
    AI_TIMEOUT: z.coerce.number().int().min(5).max(600).default(120),
    /**
     * AES-256-GCM key material for certificate private keys and the ACME account key at rest
     * (docs/ssl.md). Unset: generated once and kept in settings outside production; in production
     * certificate uploads and issues are refused until it is set.
     */
    SSL_KEY_SECRET: z.preprocess(blankToUndef, z.string().min(32, "must be at least 32 characters").optional()),
    /** the ACME directory: "letsencrypt" (default), "letsencrypt-staging" or an https directory URL */
    ACME_DIRECTORY: z.preprocess(
      blankToUndef,
      z
        .string()
        .refine(
          (v) => v === "letsencrypt" || v === "letsencrypt-staging" || /^https:\/\/[^\s]+$/.test(v),
          "must be letsencrypt, letsencrypt-staging or an https:// directory URL",
        )
        .default("letsencrypt"),
    ),
    /** contact e-mail of the ACME account (expiry mails from the CA); optional */
    ACME_EMAIL: z.preprocess(blankToUndef, z.email("must be an e-mail address").optional()),
    /** run the certificate jobs (ACME steps, renewals); default on, except NODE_ENV=test */
    SSL_JOBS: z.preprocess(blankToUndef, bool.optional()),
    /** seconds between two runs of the ACME step job */
    SSL_CHECK_INTERVAL: z.coerce.number().int().min(1).max(3600).default(15),
  })
  .superRefine((c, ctx) => {
    if (c.SMS_DRIVER === "http" && !c.SMS_HTTP_URL)
      ctx.addIssue({ code: "custom", path: ["SMS_HTTP_URL"], message: "required when SMS_DRIVER=http" });
    const gateway = payGatewayKind(c);
    if (gateway === "sandbox" && c.NODE_ENV === "production")
      ctx.addIssue({ code: "custom", path: ["PAY_GATEWAY"], message: "the sandbox gateway is refused in production" });
    // A console served over https is a real deployment: the sandbox (which pays anything for free)
    // only when asked for by name there.
    if (gateway === "sandbox" && !c.PAY_GATEWAY && c.NODE_ENV !== "test" && c.PUBLIC_URL?.startsWith("https:"))
      ctx.addIssue({
        code: "custom",
        path: ["PAY_GATEWAY"],
        message: "set EPAY_URL/EPAY_PID/EPAY_KEY (or PAY_GATEWAY=sandbox explicitly) when PUBLIC_URL is https",
      });
    if (gateway === "epay") {
      // PUBLIC_URL too: the gateway's notify and return links are never built from a request.
      for (const key of ["EPAY_URL", "EPAY_PID", "EPAY_KEY", "PUBLIC_URL"] as const) {
        if (!c[key]) ctx.addIssue({ code: "custom", path: [key], message: "required for the epay gateway" });
      }
    }
    if (c.WEBHOOK_ALLOW_LOOPBACK && c.NODE_ENV === "production")
      ctx.addIssue({ code: "custom", path: ["WEBHOOK_ALLOW_LOOPBACK"], message: "refused in production" });
    if (c.AI_BASE_URL && !c.AI_MODEL)
      ctx.addIssue({ code: "custom", path: ["AI_MODEL"], message: "required with AI_BASE_URL" });
    const verify =
      c.VERIFY_PROVIDER ?? (c.NODE_ENV !== "production" ? "sandbox" : c.VERIFY_URL ? "redirect" : "manual");
    if (verify === "sandbox" && c.NODE_ENV === "production")
      ctx.addIssue({
        code: "custom",
        path: ["VERIFY_PROVIDER"],
        message: "the sandbox verification provider is refused in production",
      });
    if (verify === "redirect") {
      // PUBLIC_URL too: the return and notify links are never built from a request.
      for (const key of ["VERIFY_URL", "VERIFY_MERCHANT_ID", "VERIFY_KEY", "PUBLIC_URL"] as const) {
        if (!c[key])
          ctx.addIssue({ code: "custom", path: [key], message: "required for the redirect verification provider" });
      }
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/**
 * The payment gateway in force: PAY_GATEWAY when set; else epay as soon as any EPAY_* is set or
 * NODE_ENV is production; else the sandbox. A forgotten NODE_ENV must never turn a configured
 * real gateway into the sandbox, which pays any order for free.
 */
export function payGatewayKind(c: {
  PAY_GATEWAY?: "epay" | "sandbox";
  NODE_ENV: string;
  EPAY_URL?: string;
  EPAY_PID?: string;
  EPAY_KEY?: string;
}): "epay" | "sandbox" {
  if (c.PAY_GATEWAY) return c.PAY_GATEWAY;
  if (c.EPAY_URL || c.EPAY_PID || c.EPAY_KEY || c.NODE_ENV === "production") return "epay";
  return "sandbox";
}

/**
 * The start warning when PUBLIC_URL is unset (outside tests), naming what breaks. Production cannot
 * get here without it (the epay gateway requires it), but a trial install in development can, and
 * then runs with guessed addresses without a word.
 */
export function publicUrlWarning(c: Pick<Config, "NODE_ENV" | "PUBLIC_URL">): string | undefined {
  if (c.PUBLIC_URL || c.NODE_ENV === "test") return undefined;
  return (
    "PUBLIC_URL is not set. What breaks: the frps plugin address in a node's set-up is guessed from " +
    "the address the operator's browser uses (wrong behind a proxy or from localhost, and frps then " +
    "refuses every login); third-party sign-in (OIDC) is refused (its callback is <PUBLIC_URL>/callback/auth); " +
    "a real payment gateway (EPAY_*) and the redirect verification provider cannot be used; " +
    "/api/openapi.json names no server. Set PUBLIC_URL to the console's public address (docs/deploy.md)."
  );
}

/** Reads and validates the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
