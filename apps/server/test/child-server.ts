import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fenToYuan } from "@burrow/contract";
import { epaySign, SANDBOX_KEY, SANDBOX_PID } from "../src/modules/payments/epay";
import { freePort } from "./free-port";
import { TEST_NODE_FIELDS } from "./frp-fixtures";
import { ADMIN_PASSWORD, ADMIN_PHONE, createPgDatabase } from "./harness";

/**
 * Real Burrow processes for the operations tests (SIGTERM drain, crash recovery, several
 * processes): `node --import tsx src/main.ts` with its own data directory under /tmp/wt-ops-* and
 * a free port, spoken to over HTTP. Every process started here is killed by `killAll()`.
 */
const SERVER_DIR = path.resolve(import.meta.dirname, "..");
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const started = new Set<ChildProcess>();

export { freePort };

export function tempDir(tag: string): string {
  return fs.mkdtempSync(`/tmp/wt-ops-${tag}-`);
}

/** A fresh PostgreSQL database for the servers (dropped by the returned function). */
export const freshPgDatabase = () => createPgDatabase("burrow_ops");

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** everything the process printed so far */
  output(): string;
  /** resolves with the exit code (null when killed by a signal) */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** calls /api<path> with JSON; `token` as Bearer */
  api<T = unknown>(method: string, p: string, opts?: { token?: string; body?: unknown }): Promise<ApiAnswer<T>>;
}

export interface ApiAnswer<T> {
  status: number;
  body: { code: string | number; msg: string; data: T };
}

/** Starts a server and waits for /readyz; `env` adds to (or overrides) the defaults below. */
export async function startServer(opts: {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  /** how long to wait for /readyz (a loaded machine boots slower) */
  readyMs?: number;
}): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: opts.dataDir,
      WEB_DIST: path.join(opts.dataDir, "no-web"),
      ADMIN_PHONE,
      ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
      JWT_SECRET: "ops-test-jwt-secret-0123456789abcdef0123",
      SMS_IP_HOURLY_LIMIT: "10000",
      VERIFY_REQUIRED_FOR_TUNNELS: "0",
      FRP_POLLER: "false",
      ARGON2_CONCURRENCY: "1",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      started.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const readyMs = opts.readyMs ?? 60_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited before it was ready (${child.exitCode ?? child.signalCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not become ready within ${readyMs / 1000} s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const api: ServerProcess["api"] = async (method, p, o = {}) => {
    const res = await fetch(`${url}/api${p}`, {
      method,
      headers: {
        ...(o.body !== undefined && { "content-type": "application/json" }),
        ...(o.token && { authorization: `Bearer ${o.token}` }),
      },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.text();
    let body: ApiAnswer<never>["body"];
    try {
      body = JSON.parse(text);
    } catch {
      body = { code: res.status, msg: text, data: null as never };
    }
    return { status: res.status, body };
  };
  return { child, url, port, output: () => out, exited, api };
}

/** Kills every server still running (afterAll). */
export async function killAll(): Promise<void> {
  const waits = [...started].map(
    (c) =>
      new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGKILL");
      }),
  );
  await Promise.all(waits);
}

/** Unwraps a successful API answer or throws with what the server said. */
export function ok<T>(r: ApiAnswer<T>, what: string): T {
  if (r.body.code !== "SUCCESS") throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export const signIn = async (s: ServerProcess, phone: string, password: string): Promise<string> =>
  ok(await s.api<{ token: string }>("POST", "/auth/login", { body: { phone, password } }), "login").token;

/** A mobile number (13[5-8]…) unlikely to be registered already in a long-lived console. */
export const randomPhone = () =>
  `13${5 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** Registers a customer through SMS (the console driver prints the code) and returns its token and uid. */
export async function registerCustomer(
  s: ServerProcess,
  phone = randomPhone(),
): Promise<{ uid: number; token: string }> {
  ok(await s.api("POST", "/auth/sms", { body: { phone, scene: "register" } }), "sms");
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    code = [...s.output().matchAll(new RegExp(`\\[sms\\] to=${phone} code=(\\d+)`, "g"))].at(-1)?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  if (!code) throw new Error(`no SMS code for ${phone} in the server output`);
  const { token } = ok(
    await s.api<{ token: string }>("POST", "/auth/register", { body: { phone, code, password: "password-123" } }),
    "register",
  );
  const info = ok(await s.api<{ uid: number }>("GET", "/user/userInfo", { token }), "userInfo");
  return { uid: info.uid, token };
}

let gwSeq = 0;
/** The notify the sandbox gateway (epay protocol, sandbox key) sends for an order. */
export function sandboxNotify(order: { trade_id: string; amount: number }, tradeNo?: string): URLSearchParams {
  const params: Record<string, string> = {
    pid: SANDBOX_PID,
    trade_no: tradeNo ?? `GW${process.pid}${++gwSeq}`,
    out_trade_no: order.trade_id,
    type: "alipay",
    name: "ops-test",
    money: fenToYuan(order.amount),
    trade_status: "TRADE_SUCCESS",
  };
  return new URLSearchParams({ ...params, sign: epaySign(params, SANDBOX_KEY), sign_type: "MD5" });
}

/** Sends a notify; the text the server answered, or null when no answer came (connection lost). */
export async function sendNotify(s: ServerProcess, params: URLSearchParams): Promise<string | null> {
  try {
    const res = await fetch(`${s.url}/api/pay/epay/notify?${params}`);
    return await res.text();
  } catch {
    return null;
  }
}

/** A node, a customer with a tcp tunnel on it, and what frps would send as that customer. */
export interface FrpSetup {
  admin: string;
  node: { node_id: number; plugin_secret: string };
  uid: number;
  token: string;
  tunId: number;
  /** the plugin envelope's `user` for this customer */
  user: { user: string; metas: { token: string }; run_id: string };
  proxyName: string;
}

let nodeSeq = 0;
export async function frpSetup(s: ServerProcess, phone: string): Promise<FrpSetup> {
  const admin = await signIn(s, ADMIN_PHONE, ADMIN_PASSWORD);
  const areas = ok(await s.api<{ list: { area_id: number }[] }>("GET", "/super/area", { token: admin }), "areas");
  const levels = ok(
    await s.api<{ list: { id: number; level: number }[] }>("GET", "/super/plan/level", { token: admin }),
    "levels",
  );
  const lowest = [...levels.list].sort((a, b) => a.level - b.level)[0];
  const node = ok(
    await s.api<{ node_id: number; plugin_secret: string }>("POST", "/super/node", {
      token: admin,
      body: {
        name: `ops-node-${process.pid}-${++nodeSeq}`,
        area_id: areas.list[0].area_id,
        net_type_id: 1,
        level_id: lowest.id,
        ...TEST_NODE_FIELDS,
        api_addr: "http://127.0.0.1:1",
      },
    }),
    "node",
  );
  const c = await registerCustomer(s, phone);
  const info = ok(await s.api<{ frp_token: string }>("GET", "/user/userInfo", { token: c.token }), "userInfo");
  const tun = ok(
    await s.api<{ tun_id: number }>("POST", "/user/tun", {
      token: c.token,
      body: { tun_name: `ops${nodeSeq}`, protocol: "tcp", local_port: 22, node_id: node.node_id },
    }),
    "tunnel",
  );
  return {
    admin,
    node,
    uid: c.uid,
    token: c.token,
    tunId: tun.tun_id,
    user: { user: `u_${c.uid}`, metas: { token: info.frp_token }, run_id: "8e2f0c4b9a1d7e35" },
    proxyName: `u_${c.uid}.t_${tun.tun_id}`,
  };
}

/** Posts what frps posts to the plugin endpoint; the answer's body. */
export async function pluginCall(
  s: ServerProcess,
  node: { node_id: number; plugin_secret: string },
  op: string,
  content: unknown,
): Promise<{ reject: boolean; reject_reason?: string }> {
  const res = await fetch(`${s.url}/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=${op}&version=0.1.0`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version: "0.1.0", op, content }),
  });
  return (await res.json()) as { reject: boolean; reject_reason?: string };
}
