/**
 * A client for the frps dashboard API (frp-protocol.md §2), reading both the camelCase keys of
 * v0.52.1+ and the snake_case keys of older nodes.
 */

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
  curConns: number;
  clientCounts: number;
  totalTrafficIn: number;
  totalTrafficOut: number;
  proxyTypeCount: Record<string, number>;
}

export interface ProxyStat {
  name: string;
  type: string;
  todayIn: number;
  todayOut: number;
  curConns: number;
  online: boolean;
  /** frpc clientID, or its run id when unset (v0.67+) */
  clientId: string | null;
  /** frps-local "MM-DD HH:MM:SS", "" when never */
  lastStartTime: string;
  lastCloseTime: string;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const pick = (o: Json, camel: string, snake: string): unknown => (camel in o ? o[camel] : o[snake]);

async function getJson(target: DashboardTarget, path: string, timeoutMs: number): Promise<unknown> {
  const auth = Buffer.from(`${target.api_user}:${target.api_password}`).toString("base64");
  let res: Response;
  try {
    res = await fetch(`${target.api_addr.replace(/\/+$/, "")}${path}`, {
      headers: { authorization: `Basic ${auth}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    throw new DashboardError("unreachable", `无法连接面板 ${path}: ${cause}`);
  }
  const text = await res.text().catch(() => "");
  if (res.status === 401 || res.status === 403)
    throw new DashboardError("auth", `面板拒绝了账号密码 (HTTP ${res.status})`);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new DashboardError("bad", `面板返回 HTTP ${res.status}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new DashboardError("bad", `面板返回的不是 JSON: ${text.slice(0, 60)}`);
  }
}

/** GET /api/serverinfo; anything that is not a frps server info is "bad". */
export async function fetchServerInfo(target: DashboardTarget, timeoutMs: number): Promise<ServerInfo> {
  const o = (await getJson(target, "/api/serverinfo", timeoutMs)) as Json | null;
  const bindPort = o ? pick(o, "bindPort", "bind_port") : undefined;
  if (!o || typeof o !== "object" || typeof bindPort !== "number")
    throw new DashboardError("bad", "面板返回的不是 frps serverinfo");
  return {
    version: String(o.version ?? ""),
    bindPort,
    curConns: num(pick(o, "curConns", "cur_conns")),
    clientCounts: num(pick(o, "clientCounts", "client_counts")),
    totalTrafficIn: num(pick(o, "totalTrafficIn", "total_traffic_in")),
    totalTrafficOut: num(pick(o, "totalTrafficOut", "total_traffic_out")),
    proxyTypeCount: (pick(o, "proxyTypeCount", "proxy_type_count") as Record<string, number>) ?? {},
  };
}

/** GET /api/proxy/{type}: every proxy of that type still in frps's stats (online or not). */
export async function fetchProxies(target: DashboardTarget, type: string, timeoutMs: number): Promise<ProxyStat[]> {
  const o = (await getJson(target, `/api/proxy/${type}`, timeoutMs)) as Json | null;
  const list = o?.proxies;
  if (!Array.isArray(list)) throw new DashboardError("bad", `面板 /api/proxy/${type} 格式不正确`);
  return list.map((raw) => {
    const p = raw as Json;
    return {
      name: String(p.name ?? ""),
      type,
      todayIn: num(pick(p, "todayTrafficIn", "today_traffic_in")),
      todayOut: num(pick(p, "todayTrafficOut", "today_traffic_out")),
      curConns: num(pick(p, "curConns", "cur_conns")),
      online: p.status === "online",
      clientId: typeof p.clientID === "string" && p.clientID ? p.clientID : null,
      lastStartTime: String(pick(p, "lastStartTime", "last_start_time") ?? ""),
      lastCloseTime: String(pick(p, "lastCloseTime", "last_close_time") ?? ""),
    };
  });
}

/** GET /api/traffic/{name}: 7 daily buckets, index 0 = today; null when frps no longer has stats for it. */
export async function fetchTraffic(
  target: DashboardTarget,
  name: string,
  timeoutMs: number,
): Promise<{ in: number[]; out: number[] } | null> {
  const o = (await getJson(target, `/api/traffic/${encodeURIComponent(name)}`, timeoutMs)) as Json | null;
  if (!o) return null;
  const tin = pick(o, "trafficIn", "traffic_in");
  const tout = pick(o, "trafficOut", "traffic_out");
  if (!Array.isArray(tin) || !Array.isArray(tout)) return null;
  return { in: tin.map(num), out: tout.map(num) };
}
