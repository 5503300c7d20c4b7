/**
 * A client for the frps dashboard API (frp-protocol.md §2), reading both the camelCase keys of
 * v0.52.1+ and the snake_case keys of older nodes. frps is untrusted input: each field is
 * validated on its own (a byte counter is a non-negative safe integer), and a missing or wrongly
 * typed value is null ("unknown this round"), never 0. Bodies are read as a stream and abandoned
 * past a size limit; every request runs under the caller's deadline and its own timeout.
 */
import { z } from "zod";

export interface DashboardTarget {
  api_addr: string;
  api_user: string;
  api_password: string;
}

/** unreachable → node offline (2); auth or bad → node exception (3). */
export type DashboardFailure = "unreachable" | "auth" | "bad";

/** A failed dashboard request, classified for the node status it implies. */
export class DashboardError extends Error {
  constructor(
    readonly kind: DashboardFailure,
    message: string,
  ) {
    super(message);
    this.name = "DashboardError";
  }
}

export interface ServerInfo {
  version: string;
  bindPort: number;
  curConns: number | null;
  clientCounts: number | null;
  totalTrafficIn: number | null;
  totalTrafficOut: number | null;
  proxyTypeCount: Record<string, number>;
}

export interface ProxyStat {
  name: string;
  type: string;
  todayIn: number | null;
  todayOut: number | null;
  curConns: number | null;
  online: boolean | null;
  /** frpc clientID, or its run id when unset (v0.67+) */
  clientId: string | null;
  /** frps-local "MM-DD HH:MM:SS", "" when never */
  lastStartTime: string | null;
  lastCloseTime: string | null;
}

/** How a request is bounded. */
export interface RequestLimits {
  /** per request */
  timeoutMs: number;
  /** the whole node poll's deadline */
  signal?: AbortSignal;
  /** the largest body read, bytes */
  maxBytes?: number;
}

/** Body limits: a proxy list of 10,000 proxies is about 7 MB. */
export const BODY_LIMITS = { serverInfo: 256 * 1024, proxies: 32 * 1024 * 1024, traffic: 64 * 1024 } as const;

/** A byte or connection counter: a non-negative safe integer, else unknown. */
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().catch(null);
const text = z.string().max(1000).nullable().catch(null);
const countOf = (v: unknown): number | null => count.parse(v ?? null);
const textOf = (v: unknown): string | null => text.parse(v ?? null);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const pick = (o: Json, camel: string, snake: string): unknown => (camel in o ? o[camel] : o[snake]);

/** Reads at most `max` bytes of the body; past that the request is aborted. */
async function readCapped(res: Response, max: number, abort: AbortController, path: string): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      abort.abort();
      await reader.cancel().catch(() => {});
      throw new DashboardError("bad", `面板 ${path} 的响应超过 ${Math.round(max / 1024)} KB，已放弃`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}

async function getJson(target: DashboardTarget, path: string, limits: RequestLimits): Promise<unknown> {
  const auth = Buffer.from(`${target.api_user}:${target.api_password}`).toString("base64");
  const abort = new AbortController();
  const signals = [abort.signal, AbortSignal.timeout(limits.timeoutMs)];
  if (limits.signal) signals.push(limits.signal);
  const signal = AbortSignal.any(signals);
  const failed = (err: unknown): never => {
    if (err instanceof DashboardError) throw err;
    const timedOut = signal.aborted && (signal.reason as Error | undefined)?.name === "TimeoutError";
    const cause = timedOut ? "超时" : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name);
    throw new DashboardError("unreachable", `无法连接面板 ${path}: ${cause}`);
  };
  let res: Response;
  try {
    res = await fetch(`${target.api_addr.replace(/\/+$/, "")}${path}`, {
      headers: { authorization: `Basic ${auth}` },
      signal,
    });
  } catch (err) {
    return failed(err);
  }
  if (res.status !== 200) {
    abort.abort();
    if (res.status === 401 || res.status === 403)
      throw new DashboardError("auth", `面板拒绝了账号密码 (HTTP ${res.status})`);
    if (res.status === 404) return null;
    throw new DashboardError("bad", `面板返回 HTTP ${res.status}`);
  }
  let body: string;
  try {
    body = await readCapped(res, limits.maxBytes ?? BODY_LIMITS.proxies, abort, path);
  } catch (err) {
    return failed(err);
  }
  try {
    return JSON.parse(body);
  } catch {
    throw new DashboardError("bad", `面板返回的不是 JSON: ${body.slice(0, 60)}`);
  }
}

/** GET /api/serverinfo; anything that is not a frps server info is "bad". */
export async function fetchServerInfo(target: DashboardTarget, limits: RequestLimits): Promise<ServerInfo> {
  const o = await getJson(target, "/api/serverinfo", { maxBytes: BODY_LIMITS.serverInfo, ...limits });
  const bindPort = isObject(o) ? pick(o, "bindPort", "bind_port") : undefined;
  if (!isObject(o) || typeof bindPort !== "number") throw new DashboardError("bad", "面板返回的不是 frps serverinfo");
  const types = pick(o, "proxyTypeCount", "proxy_type_count");
  const proxyTypeCount: Record<string, number> = {};
  if (isObject(types))
    for (const [k, v] of Object.entries(types)) {
      const n = countOf(v);
      if (n !== null && k.length <= 20) proxyTypeCount[k] = n;
    }
  return {
    version: (textOf(o.version) ?? "").slice(0, 40),
    bindPort,
    curConns: countOf(pick(o, "curConns", "cur_conns")),
    clientCounts: countOf(pick(o, "clientCounts", "client_counts")),
    totalTrafficIn: countOf(pick(o, "totalTrafficIn", "total_traffic_in")),
    totalTrafficOut: countOf(pick(o, "totalTrafficOut", "total_traffic_out")),
    proxyTypeCount,
  };
}

/** One entry of a proxy list; null when it has no name (nothing to attach it to). */
export function parseProxyStat(raw: unknown, type: string): ProxyStat | null {
  if (!isObject(raw)) return null;
  const name = textOf(raw.name);
  if (!name) return null;
  const status = raw.status;
  const clientId = textOf(raw.clientID);
  return {
    name,
    type,
    todayIn: countOf(pick(raw, "todayTrafficIn", "today_traffic_in")),
    todayOut: countOf(pick(raw, "todayTrafficOut", "today_traffic_out")),
    curConns: countOf(pick(raw, "curConns", "cur_conns")),
    online: status === "online" ? true : status === "offline" ? false : null,
    clientId: clientId || null,
    lastStartTime: textOf(pick(raw, "lastStartTime", "last_start_time")),
    lastCloseTime: textOf(pick(raw, "lastCloseTime", "last_close_time")),
  };
}

/** GET /api/proxy/{type}: every proxy of that type still in frps's stats (online or not). */
export async function fetchProxies(target: DashboardTarget, type: string, limits: RequestLimits): Promise<ProxyStat[]> {
  const o = await getJson(target, `/api/proxy/${type}`, limits);
  const list = isObject(o) ? o.proxies : undefined;
  if (!Array.isArray(list)) throw new DashboardError("bad", `面板 /api/proxy/${type} 格式不正确`);
  const out: ProxyStat[] = [];
  for (const raw of list) {
    const p = parseProxyStat(raw, type);
    if (p) out.push(p);
  }
  return out;
}

/**
 * GET /api/traffic/{name}: 7 daily buckets, index 0 = today (a bucket that is not a valid counter
 * is null); null when frps no longer has stats for it or the answer is not a history.
 */
export async function fetchTraffic(
  target: DashboardTarget,
  name: string,
  limits: RequestLimits,
): Promise<{ in: (number | null)[]; out: (number | null)[] } | null> {
  const o = await getJson(target, `/api/traffic/${encodeURIComponent(name)}`, {
    maxBytes: BODY_LIMITS.traffic,
    ...limits,
  });
  if (!isObject(o)) return null;
  const tin = pick(o, "trafficIn", "traffic_in");
  const tout = pick(o, "trafficOut", "traffic_out");
  if (!Array.isArray(tin) || !Array.isArray(tout)) return null;
  return { in: tin.slice(0, 7).map(countOf), out: tout.slice(0, 7).map(countOf) };
}
