import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import pg from "pg";
import pino from "pino";
import type { TaskMeta } from "vitest";
import { buildApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import type { AppContext } from "../src/context";
import { createDb } from "../src/db/database";
import type { DB } from "../src/db/schema";
import { ANSWER_CHECK } from "../src/http/answers";
import type { SmsDriver } from "../src/modules/auth/sms";
import { NO_PHONE_PREFIX } from "../src/modules/users/users.presenter";
import { updateUserRow } from "../src/modules/users/users.repository";
import { direct } from "../src/shared/tx";
import { createMigratedPgDatabase, sqliteTemplate } from "./template-db";

export const ADMIN_PHONE = "13800000000";
export const ADMIN_PASSWORD = "admin-pass-123";

/** Which database the API suite runs on: TEST_DB=sqlite (default) or TEST_DB=postgres. */
export const TEST_DIALECT = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";

const DIALECT_NAME = { sqlite: "SQLite", postgres: "PostgreSQL" } as const;

/**
 * Test options (for `it` or `describe`) of a test that only means something on one database: it
 * runs in that pass and is skipped in the other with `why` as the printed reason.
 * @example it("…", onlyOn("postgres", "SQLite runs one write transaction at a time"), async () => …)
 */
export function onlyOn(dialect: keyof typeof DIALECT_NAME, why: string) {
  return {
    skip: TEST_DIALECT !== dialect,
    // TaskMeta is vitest's open bag of data for reporters; skipReason is ours.
    meta: {
      skipReason: `${DIALECT_NAME[dialect]} only (this is the ${DIALECT_NAME[TEST_DIALECT]} pass): ${why}`,
    } as TaskMeta,
  };
}

/**
 * Runs `fn` and returns the process warnings it raised that match `expected`, unprinted: a test that
 * provokes one on purpose (a migration refused the right to create an index) asserts it instead of
 * leaving it in the output. Any other warning raised meanwhile is printed as usual.
 */
export async function catchWarnings<T>(
  expected: RegExp,
  fn: () => Promise<T>,
): Promise<{ result: T; warnings: string[] }> {
  const printers = process.listeners("warning");
  const warnings: string[] = [];
  const onWarning = (w: Error) => {
    if (expected.test(w.message)) warnings.push(w.message);
    else for (const print of printers) print.call(process, w);
  };
  for (const print of printers) process.off("warning", print);
  process.on("warning", onWarning);
  try {
    const result = await fn();
    // process.emitWarning emits on the next tick.
    await new Promise((r) => setImmediate(r));
    return { result, warnings };
  } finally {
    process.off("warning", onWarning);
    for (const print of printers) process.on("warning", print);
  }
}

// oidc-provider (test/oidc-provider.ts, the tests' stand-in identity provider; Burrow itself does not
// use it) says "Unsupported runtime. Use Node.js v22.x LTS" once on import under Node 20, which Burrow
// supports (README). That one line is dropped; its other warnings and everyone else's still print.
// Loaded before it: every test file imports this harness ahead of test/oidc-provider.ts.
const OIDC_RUNTIME_NOTICE = "oidc-provider WARNING: Unsupported runtime.";
const consoleWarn = console.warn;
console.warn = (...args: unknown[]) => {
  // (inside the colour codes it adds on a terminal)
  if (typeof args[0] === "string" && args[0].includes(OIDC_RUNTIME_NOTICE)) return;
  consoleWarn(...args);
};

/**
 * The URL of a PostgreSQL superuser the suites make their databases with: TEST_PG_URL, else the
 * role scripts/ensure-test-deps.sh made (its URL, password included, kept in pg.url under
 * $BURROW_TEST_STATE, as scripts/test.mjs reads it). There is no passwordless `postgres` role here.
 */
export function pgAdminUrl(): string {
  if (process.env.TEST_PG_URL) return process.env.TEST_PG_URL;
  const state =
    process.env.BURROW_TEST_STATE ??
    path.join(process.env.XDG_STATE_HOME ?? path.join(os.homedir(), ".local/state"), "burrow-test");
  const file = path.join(state, "pg.url");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    throw new Error(
      `TEST_PG_URL is not set and ${file} is missing: run scripts/ensure-test-deps.sh or set TEST_PG_URL.`,
    );
  }
}

/** A URL fit for a message: without its password. */
const redacted = (url: string): string => {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
};

/** Records every SMS so tests can read the code a real phone would have received. */
export class SmsOutbox implements SmsDriver {
  readonly sent: { phone: string; code: string; scene: string }[] = [];
  async send(phone: string, code: string, scene: string) {
    this.sent.push({ phone, code, scene });
  }
  last(phone: string): string {
    const hit = [...this.sent].reverse().find((m) => m.phone === phone);
    if (!hit) throw new Error(`no SMS sent to ${phone}`);
    return hit.code;
  }
}

export interface ApiResult<T = unknown> {
  status: number;
  body: { code: string | number; msg: string; data: T };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Kysely<DB>;
  sms: SmsOutbox;
  /** calls /api<url> in-process; `token` becomes the Bearer header, `query` the query string */
  api<T = unknown>(
    method: string,
    url: string,
    opts?: {
      token?: string;
      body?: unknown;
      query?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** client address; by default every call comes from a different one, so per-IP limits stay out of the way */
      ip?: string;
    },
  ): Promise<ApiResult<T>>;
  /** registers a customer through the real SMS + register flow */
  register(phone?: string, password?: string): Promise<{ uid: number; token: string; phone: string; password: string }>;
  login(phone: string, password: string): Promise<string>;
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

let phoneSeq = 0;
let ipSeq = 0;
/**
 * A phone number unique within this test process for its first 10,000 numbers; past them it wraps,
 * staying 11 digits (the files of a worker share this module: isolate is off, vitest.config.ts).
 */
export const nextPhone = (): string =>
  `139${String(process.pid % 10000).padStart(4, "0")}${String(++phoneSeq % 10000).padStart(4, "0")}`;

/**
 * Turns an account into one without a phone, as a third-party sign-in creates it: its phone
 * column becomes the placeholder (returned). The default tail holds the old number's digits, so a
 * phone search for them would find the placeholder if it were not left out.
 */
export async function dropPhone(t: TestApp, uid: number, tail?: string): Promise<string> {
  const old = await t.db.selectFrom("users").select("phone").where("uid", "=", uid).executeTakeFirstOrThrow();
  const placeholder = `${NO_PHONE_PREFIX}${tail ?? `x${old.phone}`}`;
  await updateUserRow(direct(t.ctx), uid, { phone: placeholder });
  return placeholder;
}

/**
 * A database of its own for a test: empty, or with `migrated` a copy of the migrated template
 * (test/template-db.ts), which is what createTestApp uses; tests of the migrations start empty.
 */
export async function openTestDb(
  opts: { migrated?: boolean } = {},
): Promise<{ db: Kysely<DB>; drop: () => Promise<void>; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-test-"));
  if (TEST_DIALECT === "sqlite") {
    const file = path.join(dataDir, "test.sqlite");
    if (opts.migrated) fs.copyFileSync(await sqliteTemplate(), file);
    const db = createDb({ sqliteFile: file });
    return { db, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgDb = await createPgDatabase("burrow_t", opts);
  const db = createDb({ databaseUrl: pgDb.url });
  return {
    db,
    dataDir,
    drop: async () => {
      await pgDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new PostgreSQL database (`drop` removes it), empty or with `migrated` a copy of the migrated
 * template; fails saying so when PostgreSQL is down.
 */
export async function createPgDatabase(
  prefix: string,
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const adminUrl = pgAdminUrl();
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${redacted(adminUrl)} (${(err as Error).message}). Start it (scripts/ensure-test-deps.sh) or set TEST_PG_URL.`,
    );
  }
  try {
    if (opts.migrated) await createMigratedPgDatabase(admin, adminUrl, name);
    else await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A fresh, migrated, seeded server on its own database (SQLite file or a new PostgreSQL database). */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { db, drop, dataDir } = await openTestDb({ migrated: true });
  const config: Config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    ADMIN_PHONE,
    ADMIN_PASSWORD,
    LOG_LEVEL: "silent",
    WEB_DIST: path.join(dataDir, "no-web"),
    // Tunnel tests create tunnels for unverified customers; verify.routes.test.ts turns the
    // requirement on (it is on by default outside tests).
    VERIFY_REQUIRED_FOR_TUNNELS: "0",
    ...env,
  });
  const sms = new SmsOutbox();
  const write = process.stdout.write.bind(process.stdout);
  // The seed prints the operator's sign-in once; keep test output quiet.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp(config, { db, sms, logger: pino({ level: "silent" }), checkAnswers: true });
  } finally {
    process.stdout.write = write;
  }
  const { app, ctx } = built;
  await app.ready();

  const api: TestApp["api"] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.inject({
      method: method as "GET",
      url: `/api${url}`,
      headers,
      remoteAddress: opts.ip ?? `198.18.${(++ipSeq >> 8) & 255}.${ipSeq & 255}`,
      query: opts.query as Record<string, string>,
      ...(opts.body !== undefined && { payload: opts.body as object }),
    });
    const body = res.json();
    // The app checks every answer against its contract schema (buildApp's checkAnswers): a
    // mismatch is a 500 naming the fields, thrown here so the test that met it fails with them.
    if (typeof body?.msg === "string" && body.msg.startsWith(ANSWER_CHECK))
      throw new Error(`${method} ${url}: ${body.msg}`);
    return { status: res.statusCode, body };
  };

  const login = async (phone: string, password: string) => {
    const r = await api<{ token: string }>("POST", "/auth/login", { body: { phone, password } });
    if (r.body.code !== "SUCCESS") throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return r.body.data.token;
  };

  const register: TestApp["register"] = async (phone = nextPhone(), password = "password-123") => {
    const s = await api("POST", "/auth/sms", { body: { phone, scene: "register" } });
    if (s.body.code !== "SUCCESS") throw new Error(`sms failed: ${JSON.stringify(s.body)}`);
    const r = await api<{ token: string }>("POST", "/auth/register", {
      body: { phone, code: sms.last(phone), password },
    });
    if (r.body.code !== "SUCCESS") throw new Error(`register failed: ${JSON.stringify(r.body)}`);
    const info = await api<{ uid: number }>("GET", "/user/userInfo", { token: r.body.data.token });
    return { uid: info.body.data.uid, token: r.body.data.token, phone, password };
  };

  return {
    app,
    ctx,
    db,
    sms,
    api,
    register,
    login,
    adminToken: () => login(ADMIN_PHONE, ADMIN_PASSWORD),
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
