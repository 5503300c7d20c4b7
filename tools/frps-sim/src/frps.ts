import { createHash } from "node:crypto";
import { parseBandwidth, TokenBucket } from "./bandwidth";
import { type Dashboard, startDashboard } from "./dashboard";
import { callPlugins, type HttpPlugin, type PluginExchange, type PluginOp, randomHex16 } from "./plugin-client";

/** The frps version whose shapes the simulator reproduces. */
export const SIM_FRP_VERSION = "0.70.1";
const DAYS = 7;

export interface FrpsSimOptions {
  /** `[[httpPlugins]]`, called in this order */
  plugins?: HttpPlugin[];
  /** frps `auth.token` (frpc sends md5(token + timestamp)) */
  authToken?: string;
  bindPort?: number;
  vhostHTTPPort?: number;
  vhostHTTPSPort?: number;
  subDomainHost?: string;
  /** frps allowPorts; empty = every port */
  allowPorts?: ({ start: number; end: number } | { single: number })[];
  maxPortsPerClient?: number;
  maxPoolCount?: number;
  /**
   * The frps version simulated (default SIM_FRP_VERSION): heartbeatTimeout is enforced as that
   * version does (before 0.58.0 only with tcpMux off) and the dashboard answers with its keys.
   */
  version?: string;
  /** frps transport.tcpMux (default true) */
  tcpMux?: boolean;
  /**
   * frps transport.heartbeatTimeout in seconds; unset: frps's default for the version (90, or
   * -1 with tcpMux from 0.58.0). A session without an accepted Ping for longer is closed.
   */
  heartbeatTimeout?: number;
  /** true (frps default): frpc sees the plugin's reject reason, else a summary */
  detailedErrorsToClient?: boolean;
  /** the dashboard; `port: 0` listens on an ephemeral port */
  webServer?: { addr?: string; port?: number; user?: string; password?: string };
  /** answer with the snake_case keys of frps ≤ 0.52.0 (as `version: "0.52.0"` does) */
  legacyKeys?: boolean;
  /** frps waits 200 ms before answering a failed basic auth */
  authFailDelayMs?: number;
  /** frps's local time zone, for lastStartTime/lastCloseTime (default +08:00) */
  utcOffsetMinutes?: number;
  /** bound on each plugin call (frps has none) */
  pluginTimeoutMs?: number;
  /** sees every plugin exchange */
  onExchange?: (x: PluginExchange) => void;
  /** the simulator's clock (tests move it) */
  clock?: () => Date;
}

/**
 * A scripted dashboard answer, for tests of a hostile or broken frps: `body` replaces the JSON
 * frps would send (it gets that body), `delayMs` holds the answer back, `dripBytes` streams that
 * many bytes of filler inside a JSON string, `dripIntervalMs` apart in chunks of `dripChunk`.
 */
export interface DashboardScript {
  body?: (body: unknown) => unknown;
  delayMs?: number;
  dripBytes?: number;
  dripChunk?: number;
  dripIntervalMs?: number;
}

/** Chooses a script for a dashboard request by its path (undefined: answer as frps). */
export type DashboardScripter = (path: string) => DashboardScript | undefined;

/** What frpc sees when frps refuses something. */
export class FrpError extends Error {
  constructor(
    message: string,
    /** the plugin or validation detail frps logs */
    readonly detail = message,
  ) {
    super(message);
    this.name = "FrpError";
  }
}

/** The frpc side of a Login (frp-protocol.md §1.5 LoginContent). */
export interface LoginRequest {
  user?: string;
  metas?: Record<string, string>;
  /** frpc auth.token (privilege_key = md5(token + timestamp)) */
  token?: string;
  /** previous run id when reconnecting */
  runId?: string;
  clientId?: string;
  poolCount?: number;
  version?: string;
  hostname?: string;
  os?: string;
  arch?: string;
  clientAddress?: string;
  /** Unix seconds frpc puts in the Login */
  timestamp?: number;
}

/** A `[[proxies]]` entry of frpc.toml, in frpc's camelCase. */
export interface ProxyConfig {
  name: string;
  type: string;
  localIP?: string;
  localPort?: number;
  remotePort?: number;
  customDomains?: string[];
  subdomain?: string;
  locations?: string[];
  httpUser?: string;
  httpPassword?: string;
  hostHeaderRewrite?: string;
  requestHeaders?: Record<string, string>;
  useEncryption?: boolean;
  useCompression?: boolean;
  bandwidthLimit?: string;
  bandwidthLimitMode?: string;
  metadatas?: Record<string, string>;
  enabled?: boolean;
  /** stcp, sudp, xtcp: the secret visitors present, and who may visit */
  secretKey?: string;
  allowUsers?: string[];
}

/** NewProxy content as frps sends it (snake_case, empty fields omitted). */
export type NewProxyContent = Record<string, unknown> & {
  user: UserInfo;
  proxy_name?: string;
  proxy_type?: string;
  remote_port?: number;
  custom_domains?: string[];
  subdomain?: string;
  locations?: string[];
  bandwidth_limit?: string;
  bandwidth_limit_mode?: string;
};

interface UserInfo {
  user: string;
  metas: Record<string, string> | null;
  run_id: string;
}

export interface ProxyStatsEntry {
  name: string;
  type: string;
  user: string;
  clientId: string;
  online: boolean;
  /** index 0 = today, 1 = yesterday, … (bytes) */
  trafficIn: number[];
  trafficOut: number[];
  curConns: number;
  lastStartTime: string;
  lastCloseTime: string;
  /** the content frps built the proxy from (after plugins) */
  content: NewProxyContent | null;
  remotePort: number | null;
  runId: string | null;
  /**
   * The proxy's bandwidth limit as frps enforces it (`bandwidth_limit` parsed as frp parses it,
   * mode "server"): one token bucket for both directions; null = no limit.
   */
  limiter: TokenBucket | null;
}

/**
 * A visitor connection: bytes it carries are counted when its work connection closes, as frps
 * does. Closing a proxy or frps's side of a session closes none of them; stock frpc's session
 * (tcpMux) takes them with it, and a restart loses them uncounted.
 */
export interface HeldConn {
  accepted: boolean;
  reason?: string;
  /**
   * The visitor closes. Without a limit the work connection closes with it and is counted; on a
   * proxy with a server-side limit frps never passes the close on (the limited wrapper's close
   * calls itself, server/proxy/proxy.go): it stays open until `closeLocal`.
   */
  close: () => void;
  /** The local service closes it (frpc then closes the work connection): counted now. */
  closeLocal: () => void;
  /** carries more bytes (counted at close); resolves when the proxy's limit let them through */
  transfer: (bytesIn: number, bytesOut: number) => Promise<void>;
  /** the work connection is still open (frps shows it in curConns) */
  readonly open: boolean;
}

/** A work connection in frps's http reverse proxy pool. */
interface HttpWorkConn {
  session: SimSession;
  limiter: TokenBucket | null;
  bytesIn: number;
  bytesOut: number;
  closed: boolean;
  timer: NodeJS.Timeout | null;
  finish: () => void;
}

const versionParts = (v: string) =>
  v
    .replace(/^v/, "")
    .split(".")
    .map((x) => Number.parseInt(x, 10) || 0);
/** a ≥ b for versions like "0.58.0". */
export function versionAtLeast(a: string, b: string): boolean {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return true;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

/** Drops Go `omitempty` fields: false, 0, "", null, undefined, empty arrays and maps. */
function omitEmpty<T extends Record<string, unknown>>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === false || v === 0 || v === "") continue;
    if (Array.isArray(v) && !v.length) continue;
    if (typeof v === "object" && !Array.isArray(v) && !Object.keys(v as object).length) continue;
    out[k] = v;
  }
  return out as T;
}

const md5 = (s: string) => createHash("md5").update(s).digest("hex");
const zeros = () => new Array<number>(DAYS).fill(0);

/**
 * A simulated frps (frp-protocol.md §6): sessions, proxies with frps's validation, the plugin
 * calls in the order and with the bodies a real frps sends, visitor connections with the counter
 * timing of §6.3, restarts (everything in memory is lost) and day rollover, and the dashboard API.
 */
export class FrpsSim {
  readonly opts: FrpsSimOptions;
  private readonly sessions = new Map<string, SimSession>();
  readonly stats = new Map<string, ProxyStatsEntry>();
  private readonly tcpPorts = new Map<number, string>();
  private readonly udpPorts = new Map<number, string>();
  private readonly httpRoutes = new Map<string, string>();
  private readonly httpsRoutes = new Map<string, string>();
  /** random-port reservations by proxy name (kept across closes) */
  private readonly reserved = new Map<string, number>();
  serverIn = zeros();
  serverOut = zeros();
  private readonly background = new Set<Promise<unknown>>();
  private dashboard: Dashboard | null = null;
  /** plugin exchanges, newest last (capped) */
  readonly exchanges: PluginExchange[] = [];
  /** scripted dashboard answers (tests of a hostile frps); settable at any time */
  dashboardScript: DashboardScripter | null = null;
  /** bumped by a restart: connections of an earlier process count nothing when they close */
  private generation = 0;
  /** idle http work connections by proxy name (the reverse proxy's transport pool) */
  private readonly httpIdle = new Map<string, HttpWorkConn[]>();
  private heartbeatTimer: NodeJS.Timeout | null = null;

  constructor(opts: FrpsSimOptions = {}) {
    this.opts = { detailedErrorsToClient: true, maxPoolCount: 5, bindPort: 7000, ...opts };
  }

  /** Starts the dashboard (when webServer.port is set). */
  async start(): Promise<void> {
    if (this.opts.webServer?.port !== undefined && !this.dashboard) this.dashboard = await startDashboard(this);
  }

  /** The dashboard's base URL, e.g. http://127.0.0.1:7500. */
  get dashboardUrl(): string {
    if (!this.dashboard) throw new Error("dashboard not started");
    return this.dashboard.url;
  }

  /** The simulated frps version. */
  get version(): string {
    return this.opts.version ?? (this.opts.legacyKeys ? "0.52.0" : SIM_FRP_VERSION);
  }

  /** The simulator's clock in ms. */
  nowMs(): number {
    return this.opts.clock?.().getTime() ?? Date.now();
  }

  /** transport.heartbeatTimeout as this frps completes it (its value in /api/serverinfo). */
  get heartbeatTimeout(): number {
    if (this.opts.heartbeatTimeout !== undefined) return this.opts.heartbeatTimeout;
    return versionAtLeast(this.version, "0.58.0") && this.opts.tcpMux !== false ? -1 : 90;
  }

  /**
   * Whether frps drops a session without an accepted Ping for heartbeatTimeout: from 0.58.0
   * always (when the timeout is positive), before only with tcpMux off (control.go).
   */
  get heartbeatEnforced(): boolean {
    if (this.heartbeatTimeout <= 0) return false;
    return versionAtLeast(this.version, "0.58.0") || this.opts.tcpMux === false;
  }

  /**
   * frps's heartbeat worker (once a second on a real frps; a timer does it here too): closes the
   * control of every session whose last accepted Ping (or Login) is older than heartbeatTimeout.
   * Answers the sessions it closed.
   */
  async checkHeartbeats(): Promise<SimSession[]> {
    if (!this.heartbeatEnforced) return [];
    const limit = this.heartbeatTimeout * 1000;
    const now = this.nowMs();
    const late = this.liveSessions.filter((s) => now - s.lastPing > limit);
    for (const s of late) await s.end("heartbeat timeout");
    return late;
  }

  private watchHeartbeats(): void {
    if (this.heartbeatTimer || !this.heartbeatEnforced) return;
    this.heartbeatTimer = setInterval(() => void this.checkHeartbeats(), 1000);
    this.heartbeatTimer.unref();
  }

  /** Stops the dashboard and waits for background plugin calls. */
  async stop(): Promise<void> {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    await this.settle();
    await this.dashboard?.close();
    this.dashboard = null;
  }

  /** Waits until every plugin call fired in the background (CloseProxy, pool refills) is answered. */
  async settle(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  private track<T>(p: Promise<T>): void {
    const q = p.catch(() => undefined).finally(() => this.background.delete(q));
    this.background.add(q);
  }

  /** Runs one plugin op and returns the possibly modified content, or throws what frpc would see. */
  async callPlugin<C extends object>(op: PluginOp, content: C, summary?: string): Promise<C> {
    const out = await callPlugins(this.opts.plugins ?? [], op, content, {
      timeoutMs: this.opts.pluginTimeoutMs,
      onExchange: (x) => {
        this.exchanges.push(x);
        if (this.exchanges.length > 5000) this.exchanges.splice(0, 1000);
        this.opts.onExchange?.(x);
      },
    });
    if (!out.ok) {
      if (out.crash) this.trackBackground(this.restart());
      throw new FrpError(this.opts.detailedErrorsToClient || !summary ? out.error : summary, out.detail);
    }
    return out.content;
  }

  /** frps-local "MM-DD HH:MM:SS" (Go layout 01-02 15:04:05). */
  localTime(at = this.opts.clock?.() ?? new Date()): string {
    const d = new Date(at.getTime() + (this.opts.utcOffsetMinutes ?? 480) * 60_000);
    return d.toISOString().slice(5, 19).replace("T", " ");
  }

  /**
   * An frpc Login: the Login plugin op first (before the token check, as frps does), then the
   * token check on the content the plugins returned, then a session with a run id.
   */
  async login(req: LoginRequest): Promise<SimSession> {
    const timestamp = req.timestamp ?? Math.floor(Date.now() / 1000);
    const content = {
      ...omitEmpty({
        version: req.version ?? SIM_FRP_VERSION,
        hostname: req.hostname ?? "sim-host",
        os: req.os ?? "linux",
        arch: req.arch ?? "amd64",
        user: req.user,
        privilege_key: md5(`${req.token ?? ""}${timestamp}`),
        timestamp,
        run_id: req.runId,
        client_id: req.clientId,
        metas: req.metas,
      }),
      client_spec: {},
      pool_count: req.poolCount ?? 1,
      client_address: req.clientAddress ?? "203.0.113.7:51234",
    };
    const out = await this.callPlugin("Login", content, "register control error");
    if (out.privilege_key !== md5(`${this.opts.authToken ?? ""}${out.timestamp ?? 0}`)) {
      throw new FrpError("token in login doesn't match token from configuration");
    }
    const runId = out.run_id || randomHex16();
    const user = out.user ?? "";
    const existing = this.sessions.get(runId);
    // A login with the run id of a live session replaces it (frps closes the old control).
    if (existing) await existing.end("replaced");
    const session = new SimSession(this, {
      runId,
      user,
      metas: out.metas && Object.keys(out.metas).length ? out.metas : null,
      clientId: out.client_id ?? "",
      poolCount: Math.min(out.pool_count ?? 1, this.opts.maxPoolCount ?? 5),
      hostname: out.hostname ?? "",
      version: out.version ?? "",
      clientAddress: req.clientAddress ?? "203.0.113.7:51234",
    });
    this.sessions.set(runId, session);
    this.watchHeartbeats();
    return session;
  }

  /** Sessions connected now. */
  get clientCount(): number {
    return [...this.sessions.values()].filter((s) => s.online).length;
  }

  /** Live sessions. */
  get liveSessions(): SimSession[] {
    return [...this.sessions.values()].filter((s) => s.online);
  }

  /** @internal */
  forgetSession(s: SimSession): void {
    if (this.sessions.get(s.runId) === s) this.sessions.delete(s.runId);
  }

  private allowed(port: number): boolean {
    const allow = this.opts.allowPorts ?? [];
    if (!allow.length) return port >= 1 && port <= 65535;
    return allow.some((a) => ("single" in a ? a.single === port : port >= a.start && port <= a.end));
  }

  private allocatePort(type: "tcp" | "udp", name: string, wanted: number): number {
    const used = type === "tcp" ? this.tcpPorts : this.udpPorts;
    const prefix = type === "udp" ? `acquire port ${wanted} error: ` : "";
    if (wanted) {
      if (!this.allowed(wanted)) throw new FrpError(`${prefix}port not allowed`);
      if (used.has(wanted)) throw new FrpError(`${prefix}port already used`);
      return wanted;
    }
    const again = this.reserved.get(name);
    if (again && !used.has(again) && this.allowed(again)) return again;
    const allow = this.opts.allowPorts?.length ? this.opts.allowPorts : [{ start: 10000, end: 60000 }];
    const candidates = allow.flatMap((a) => ("single" in a ? [a.single] : [a.start, a.end]));
    const lo = Math.min(...candidates);
    const hi = Math.max(...candidates);
    for (let i = 0; i < 5; i++) {
      const p = lo + Math.floor(Math.random() * (hi - lo + 1));
      if (this.allowed(p) && !used.has(p)) return p;
    }
    throw new FrpError("no available port");
  }

  /**
   * Registers a proxy the plugins accepted, with frps's own checks (frp-protocol.md §3.5) and
   * its answer's remote address. Stats of a proxy of the same name and type are kept.
   * @internal
   */
  registerProxy(session: SimSession, c: NewProxyContent): string {
    const type = c.proxy_type || "tcp";
    const name = c.proxy_name ?? "";
    if (!["tcp", "udp", "http", "https", "tcpmux", "stcp", "sudp", "xtcp"].includes(type))
      throw new FrpError(`unknown proxy type: ${type}`);
    if (type === "http" && !this.opts.vhostHTTPPort)
      throw new FrpError("type [http] not supported when vhost http port is not set");
    if (type === "https" && !this.opts.vhostHTTPSPort)
      throw new FrpError("type [https] not supported when vhost https port is not set");
    const domains: string[] = [...(c.custom_domains ?? [])];
    if (type === "http" || type === "https") {
      if (c.subdomain) {
        if (!this.opts.subDomainHost)
          throw new FrpError("subdomain is not supported because this feature is not enabled in server");
        if (/[.*]/.test(c.subdomain)) throw new FrpError("'.' and '*' are not supported in subdomain");
        domains.push(`${c.subdomain}.${this.opts.subDomainHost}`);
      }
      const host = this.opts.subDomainHost;
      for (const d of c.custom_domains ?? [])
        if (host && (d === host || d.endsWith(`.${host}`)))
          throw new FrpError(`custom domain [${d}] should not belong to subdomain host [${host}]`);
    }
    if ((type === "tcp" || type === "udp") && this.opts.maxPortsPerClient) {
      const ports = [...session.proxies].filter((n) => {
        const t = this.stats.get(n)?.type;
        return t === "tcp" || t === "udp";
      }).length;
      if (ports >= this.opts.maxPortsPerClient) throw new FrpError("exceed the max_ports_per_client");
    }
    if (this.stats.get(name)?.online) throw new FrpError(`proxy [${name}] already exists`);
    let remotePort: number | null = null;
    let remoteAddr = "";
    if (type === "tcp" || type === "udp") {
      remotePort = this.allocatePort(type, name, c.remote_port ?? 0);
      (type === "tcp" ? this.tcpPorts : this.udpPorts).set(remotePort, name);
      this.reserved.set(name, remotePort);
      remoteAddr = `:${remotePort}`;
    } else if (type === "http" || type === "https") {
      const routes = type === "http" ? this.httpRoutes : this.httpsRoutes;
      const locs = type === "http" && c.locations?.length ? c.locations : [""];
      const keys = domains.flatMap((d) => locs.map((l) => `${d}${l}`));
      if (keys.some((k) => routes.has(k))) throw new FrpError("router config conflict");
      for (const k of keys) routes.set(k, name);
      const port = type === "http" ? this.opts.vhostHTTPPort : this.opts.vhostHTTPSPort;
      const dflt = type === "http" ? 80 : 443;
      remoteAddr = domains.map((d) => (port === dflt ? d : `${d}:${port}`)).join(",");
    }
    const prev = this.stats.get(name);
    const keep = prev && prev.type === type;
    this.stats.set(name, {
      name,
      type,
      user: session.user,
      clientId: session.clientId || session.runId,
      online: true,
      trafficIn: keep ? prev.trafficIn : zeros(),
      trafficOut: keep ? prev.trafficOut : zeros(),
      // frps's counter of open connections lives with the stats entry, not the proxy.
      curConns: keep ? prev.curConns : 0,
      lastStartTime: this.localTime(),
      lastCloseTime: keep ? prev.lastCloseTime : "",
      content: c,
      remotePort,
      runId: session.runId,
      limiter: this.limiterFor(c),
    });
    session.proxies.add(name);
    return remoteAddr;
  }

  /** frps's limiter for a proxy: `bandwidth_limit` parsed as frp does, enforced only in "server" mode. */
  private limiterFor(c: NewProxyContent): TokenBucket | null {
    const limit = parseBandwidth(typeof c.bandwidth_limit === "string" ? c.bandwidth_limit : undefined);
    if (!limit || c.bandwidth_limit_mode !== "server") return null;
    return new TokenBucket(limit.bytes, () => this.nowMs());
  }

  /**
   * Marks a proxy closed, frees its port and routes, fires the CloseProxy op in the background.
   * Its connections in flight stay open (BaseProxy.Close closes only listeners). @internal
   */
  unregisterProxy(session: SimSession, name: string): void {
    const e = this.stats.get(name);
    session.proxies.delete(name);
    if (!e?.online || e.runId !== session.runId) return;
    e.online = false;
    e.lastCloseTime = this.localTime();
    e.runId = null;
    if (e.remotePort) (e.type === "udp" ? this.udpPorts : this.tcpPorts).delete(e.remotePort);
    for (const routes of [this.httpRoutes, this.httpsRoutes])
      for (const [k, v] of routes) if (v === name) routes.delete(k);
    // Fired after the proxy is already closed; frps ignores the answer (frp-protocol.md §1.3).
    this.track(this.callPlugin("CloseProxy", { user: session.userInfo(), proxy_name: name }));
  }

  /** @internal */
  trackBackground(p: Promise<unknown>): void {
    this.track(p);
  }

  /**
   * One visitor connection to a proxy, as §6.2/§6.3 describe: NewUserConn for tcp-like types
   * (not http nor udp), a pooled work connection (a NewWorkConn refills the pool), curConns while
   * open, and the bytes counted when it closes (udp: at once). The bytes pass the proxy's
   * bandwidth limit first (the visit takes that long). Without `hold` the visitor and the local
   * service are done at once: the connection closes and is counted.
   */
  async visit(
    name: string,
    o: { bytesIn?: number; bytesOut?: number; remoteAddr?: string; hold?: boolean } = {},
  ): Promise<HeldConn> {
    const e = this.stats.get(name);
    const session = e?.runId ? this.sessions.get(e.runId) : undefined;
    const refused = (reason: string): HeldConn => ({
      accepted: false,
      reason,
      close: () => undefined,
      closeLocal: () => undefined,
      transfer: async () => undefined,
      open: false,
    });
    if (!e?.online || !session) return refused("proxy not online");
    if (["tcp", "https", "tcpmux", "stcp", "sudp"].includes(e.type)) {
      try {
        await this.callPlugin("NewUserConn", {
          user: session.userInfo(),
          proxy_name: name,
          proxy_type: e.type,
          remote_addr: o.remoteAddr ?? "198.51.100.9:40112",
        });
      } catch (err) {
        return refused((err as Error).message);
      }
    }
    const limiter = e.limiter;
    const gen = this.generation;
    // metrics.Server.AddTrafficIn/Out go to whatever entry has the name when the connection ends.
    const add = (bytesIn: number, bytesOut: number) => {
      if (gen !== this.generation) return;
      const now = this.stats.get(name);
      if (now) {
        now.trafficIn[0] += bytesIn;
        now.trafficOut[0] += bytesOut;
      }
      this.serverIn[0] += bytesIn;
      this.serverOut[0] += bytesOut;
    };
    if (e.type === "udp") {
      await sleep(limiter?.reserve((o.bytesIn ?? 0) + (o.bytesOut ?? 0)) ?? 0);
      add(o.bytesIn ?? 0, o.bytesOut ?? 0);
      return { ...refused(""), accepted: true, reason: undefined };
    }
    if (e.type === "http") return this.visitHttp(name, session, o, gen, add, refused);
    if (!(await session.takeWorkConn())) return refused("no work connection");
    e.curConns++;
    let bytesIn = 0;
    let bytesOut = 0;
    let visitorGone = false;
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      session.conns.delete(finish);
      if (gen !== this.generation) return;
      const now = this.stats.get(name);
      if (now && now.curConns > 0) now.curConns--;
      add(bytesIn, bytesOut);
    };
    const transfer = async (i: number, out: number) => {
      if (closed || visitorGone) return;
      bytesIn += i;
      bytesOut += out;
      await sleep(limiter?.reserve(i + out) ?? 0);
    };
    const close = () => {
      if (closed) return;
      visitorGone = true;
      if (!limiter) finish();
    };
    session.conns.add(finish);
    await transfer(o.bytesIn ?? 0, o.bytesOut ?? 0);
    if (!o.hold) finish();
    return {
      accepted: true,
      close,
      closeLocal: finish,
      transfer,
      get open() {
        return !closed;
      },
    };
  }

  /**
   * An http request: frps's reverse proxy (pkg/util/vhost/http.go) keeps work connections in an
   * http.Transport pool (5 idle per host, IdleConnTimeout 60 s) and reuses them for later requests;
   * each is counted (server/proxy/http.go, StatsConn) only when the transport closes it — late.
   * `close` ends the request (the connection goes back to the pool), `closeLocal` is frpc closing it.
   */
  private async visitHttp(
    name: string,
    session: SimSession,
    o: { bytesIn?: number; bytesOut?: number; hold?: boolean },
    gen: number,
    add: (bytesIn: number, bytesOut: number) => void,
    refused: (reason: string) => HeldConn,
  ): Promise<HeldConn> {
    const idle = this.httpIdle.get(name) ?? [];
    this.httpIdle.set(name, idle);
    let c = idle.find((x) => x.session === session);
    if (c) {
      idle.splice(idle.indexOf(c), 1);
      if (c.timer) clearTimeout(c.timer);
      c.timer = null;
    } else {
      const e = this.stats.get(name);
      if (!e || !(await session.takeWorkConn())) return refused("no work connection");
      e.curConns++;
      const conn: HttpWorkConn = {
        session,
        limiter: e.limiter,
        bytesIn: 0,
        bytesOut: 0,
        closed: false,
        timer: null,
        finish: () => {
          if (conn.closed) return;
          conn.closed = true;
          session.conns.delete(conn.finish);
          if (conn.timer) clearTimeout(conn.timer);
          const list = this.httpIdle.get(name);
          if (list?.includes(conn)) list.splice(list.indexOf(conn), 1);
          if (gen !== this.generation) return;
          const now = this.stats.get(name);
          if (now && now.curConns > 0) now.curConns--;
          add(conn.bytesIn, conn.bytesOut);
        },
      };
      session.conns.add(conn.finish);
      c = conn;
    }
    const conn = c;
    let done = false;
    const transfer = async (i: number, out: number) => {
      if (conn.closed || done) return;
      conn.bytesIn += i;
      conn.bytesOut += out;
      await sleep(conn.limiter?.reserve(i + out) ?? 0);
    };
    const release = () => {
      if (done || conn.closed) return;
      done = true;
      idle.push(conn);
      if (idle.length > 5) idle[0].finish(); // MaxIdleConnsPerHost
      conn.timer = setTimeout(conn.finish, 60_000);
      conn.timer.unref();
    };
    await transfer(o.bytesIn ?? 0, o.bytesOut ?? 0);
    if (!o.hold) release();
    return {
      accepted: true,
      close: release,
      closeLocal: conn.finish,
      transfer,
      get open() {
        return !conn.closed;
      },
    };
  }

  /** The reverse proxy's IdleConnTimeout passes: idle http work connections close and are counted. */
  expireIdleHttp(): void {
    for (const list of this.httpIdle.values()) for (const c of [...list]) c.finish();
  }

  /** Adds bytes to a proxy's today counters directly (load generators, benches). */
  addTraffic(name: string, bytesIn: number, bytesOut: number): void {
    const e = this.stats.get(name);
    if (!e) throw new Error(`no proxy ${name}`);
    e.trafficIn[0] += bytesIn;
    e.trafficOut[0] += bytesOut;
    this.serverIn[0] += bytesIn;
    this.serverOut[0] += bytesOut;
  }

  /** Local midnight: every daily bucket shifts right, today starts at zero. */
  rollover(days = 1): void {
    const shift = (a: number[]) => {
      for (let d = 0; d < days; d++) {
        a.pop();
        a.unshift(0);
      }
    };
    for (const e of this.stats.values()) {
      shift(e.trafficIn);
      shift(e.trafficOut);
    }
    shift(this.serverIn);
    shift(this.serverOut);
  }

  /**
   * frps restarts, cleanly or not: frps has no signal handler, so no CloseProxy is sent either
   * way; sessions end, connections in flight are lost uncounted, and every counter, port and
   * route is gone. Clients reconnect with their old run ids (FrpcClient does).
   */
  async restart(): Promise<void> {
    this.generation++;
    for (const list of this.httpIdle.values()) for (const c of list) if (c.timer) clearTimeout(c.timer);
    this.httpIdle.clear();
    const sessions = [...this.sessions.values()];
    for (const s of sessions) await s.end("restart", false);
    this.sessions.clear();
    this.stats.clear();
    this.tcpPorts.clear();
    this.udpPorts.clear();
    this.httpRoutes.clear();
    this.httpsRoutes.clear();
    this.reserved.clear();
    this.serverIn = zeros();
    this.serverOut = zeros();
  }

  /** Proxy counts per type as /api/serverinfo reports them (keys stay once seen). */
  proxyTypeCount(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const e of this.stats.values()) out[e.type] = (out[e.type] ?? 0) + (e.online ? 1 : 0);
    return out;
  }

  /** Drops stats of offline proxies (DELETE /api/proxies?status=offline). */
  pruneOffline(): number {
    let n = 0;
    for (const [k, e] of this.stats) {
      if (!e.online) {
        this.stats.delete(k);
        n++;
      }
    }
    return n;
  }
}

/** One frpc control session on the simulated frps. */
export class SimSession {
  readonly runId: string;
  readonly user: string;
  readonly metas: Record<string, string> | null;
  readonly clientId: string;
  readonly poolCount: number;
  readonly hostname: string;
  readonly version: string;
  readonly clientAddress: string;
  readonly proxies = new Set<string>();
  readonly connectedAt = Math.floor(Date.now() / 1000);
  online = true;
  /** when frps last accepted a Ping (the Login sets it), ms on the simulator's clock */
  lastPing: number;
  /** work connections in use: each closes (and is counted) when called */
  readonly conns = new Set<() => void>();
  /** idle work connections */
  pool = 0;
  private readonly closeListeners: ((reason: string) => void)[] = [];

  constructor(
    private readonly sim: FrpsSim,
    init: {
      runId: string;
      user: string;
      metas: Record<string, string> | null;
      clientId: string;
      poolCount: number;
      hostname: string;
      version: string;
      clientAddress: string;
    },
  ) {
    this.runId = init.runId;
    this.user = init.user;
    this.metas = init.metas;
    this.clientId = init.clientId;
    this.poolCount = init.poolCount;
    this.hostname = init.hostname;
    this.version = init.version;
    this.clientAddress = init.clientAddress;
    this.lastPing = sim.nowMs();
  }

  /** The `user` object of every op but Login (no omitempty: metas may be null). */
  userInfo(): UserInfo {
    return { user: this.user, metas: this.metas, run_id: this.runId };
  }

  /** Called when the session ends (frpc closed it, heartbeat timeout, restart, replaced). */
  onClose(fn: (reason: string) => void): void {
    this.closeListeners.push(fn);
  }

  private assertOnline(): void {
    if (!this.online) throw new FrpError("session closed");
  }

  /** frpc's NewProxy: plugins first, then frps's checks; answers the remote address. */
  async newProxy(cfg: ProxyConfig): Promise<{ proxyName: string; remoteAddr: string; content: NewProxyContent }> {
    this.assertOnline();
    const name = this.user ? `${this.user}.${cfg.name}` : cfg.name;
    const content = { user: this.userInfo(), ...proxyContent(name, cfg) } as NewProxyContent;
    const out = await this.sim.callPlugin("NewProxy", content, `new proxy [${cfg.name}] error`);
    this.assertOnline();
    // frps keeps the session's user whatever the plugin returned (§1.3).
    const final = { ...out, user: this.userInfo() } as NewProxyContent;
    const remoteAddr = this.sim.registerProxy(this, final);
    return { proxyName: final.proxy_name ?? "", remoteAddr, content: final };
  }

  /** frpc's CloseProxy (config reload, stop): closes one proxy. */
  closeProxy(proxyName: string): void {
    this.sim.unregisterProxy(this, proxyName);
  }

  /**
   * One heartbeat. A refused Ping throws what frps puts in `Pong{error}` and closes nothing:
   * stock frpc closes its own session on it (FrpcClient does), a modified one may not. Only an
   * accepted Ping moves lastPing.
   */
  async ping(): Promise<void> {
    this.assertOnline();
    await this.sim.callPlugin("Ping", { user: this.userInfo() }, "invalid ping");
    if (this.online) this.lastPing = this.sim.nowMs();
  }

  /** The client's end of the session goes (stock frpc's tcpMux session): its work connections close. */
  dropConnections(): void {
    for (const finish of [...this.conns]) finish();
  }

  /** A work connection from frpc (pool fill or refill): the NewWorkConn op. */
  async newWorkConn(): Promise<boolean> {
    if (!this.online) return false;
    try {
      await this.sim.callPlugin("NewWorkConn", { user: this.userInfo(), run_id: this.runId }, "invalid NewWorkConn");
    } catch {
      return false;
    }
    this.pool++;
    return true;
  }

  /** Opens the login's pool of work connections (frps sends ReqWorkConn × pool after LoginResp). */
  async fillPool(): Promise<void> {
    for (let i = 0; i < this.poolCount; i++) await this.newWorkConn();
  }

  /** @internal A visitor takes a pooled work connection; frps asks for a replacement right away. */
  async takeWorkConn(): Promise<boolean> {
    if (this.pool <= 0 && !(await this.newWorkConn())) return false;
    this.pool--;
    this.sim.trackBackground(this.newWorkConn());
    return true;
  }

  /**
   * frps closes the control: every proxy closes (CloseProxy each, when `notify`). Connections in
   * flight stay open (frps never closes them; stock frpc's session takes them, FrpcClient).
   */
  async end(reason: string, notify = true): Promise<void> {
    if (!this.online) return;
    this.online = false;
    for (const name of [...this.proxies]) {
      if (notify) this.sim.unregisterProxy(this, name);
      else {
        const e = this.sim.stats.get(name);
        if (e) e.online = false;
      }
    }
    this.proxies.clear();
    this.sim.forgetSession(this);
    for (const fn of this.closeListeners) fn(reason);
  }
}

/** frpc's NewProxy message fields for a proxy config (frp-protocol.md §1.5 table order, omitempty). */
export function proxyContent(proxyName: string, cfg: ProxyConfig): Record<string, unknown> {
  const web = cfg.type === "http" || cfg.type === "https";
  const secret = cfg.type === "stcp" || cfg.type === "sudp" || cfg.type === "xtcp";
  return omitEmpty({
    proxy_name: proxyName,
    proxy_type: cfg.type,
    use_encryption: cfg.useEncryption,
    use_compression: cfg.useCompression,
    bandwidth_limit: cfg.bandwidthLimit,
    bandwidth_limit_mode: cfg.bandwidthLimitMode === "server" ? "server" : undefined,
    metas: cfg.metadatas,
    remote_port: cfg.type === "tcp" || cfg.type === "udp" ? cfg.remotePort : undefined,
    custom_domains: web ? cfg.customDomains : undefined,
    subdomain: web ? cfg.subdomain : undefined,
    locations: cfg.type === "http" ? cfg.locations : undefined,
    http_user: cfg.type === "http" ? cfg.httpUser : undefined,
    http_pwd: cfg.type === "http" ? cfg.httpPassword : undefined,
    host_header_rewrite: cfg.type === "http" ? cfg.hostHeaderRewrite : undefined,
    headers: cfg.type === "http" ? cfg.requestHeaders : undefined,
    sk: secret ? cfg.secretKey : undefined,
    allow_users: secret ? cfg.allowUsers : undefined,
  });
}
