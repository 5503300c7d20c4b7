import { type FrpsSim, type HeldConn, type ProxyConfig, SIM_FRP_VERSION, type SimSession } from "./frps";
import { checkClientConfig } from "./strict-config";
import { renderFrpcTemplate } from "./template";
import { parseToml, type TomlTable, type TomlValue } from "./toml";

/** The parts of an frpc.toml (v1 format) the simulator acts on. */
export interface FrpcConfig {
  serverAddr: string;
  serverPort: number;
  user: string;
  authToken: string;
  metadatas: Record<string, string>;
  clientID: string;
  loginFailExit: boolean;
  poolCount: number;
  /** transport.tcpMux (default true): work connections are streams of the one session */
  tcpMux: boolean;
  /** seconds; ≤ 0 disables heartbeats (frpc ≥ 0.58 default with tcpMux) */
  heartbeatInterval: number;
  heartbeatTimeout: number;
  proxies: ProxyConfig[];
}

const str = (v: TomlValue | undefined, d = ""): string => (typeof v === "string" ? v : d);
const num = (v: TomlValue | undefined, d: number): number => (typeof v === "number" ? v : d);
const table = (v: TomlValue | undefined): TomlTable =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as TomlTable) : {};
const strings = (v: TomlValue | undefined): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
const stringMap = (v: TomlValue | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(table(v)).map(([k, x]) => [k, String(x)]));

/**
 * Reads an frpc.toml (frp ≥ 0.52 format) with frpc's defaults (frp-protocol.md §3.1), loaded as
 * frpc `version` does: strictly from 0.55.0, a key frpc does not know (anywhere, plugin
 * sub-tables included) refused with frpc's own message (FrpConfigError, strict-config.ts).
 */
export function parseFrpcConfig(text: string, version = SIM_FRP_VERSION): FrpcConfig {
  // frpc renders the file as a Go template first (port ranges: template.ts).
  const t = parseToml(renderFrpcTemplate(text, version));
  checkClientConfig(t, version);
  const auth = table(t.auth);
  const transport = table(t.transport);
  const tcpMux = transport.tcpMux !== false;
  const proxies = (Array.isArray(t.proxies) ? t.proxies : []).map((raw) => {
    const p = table(raw);
    const tr = table(p.transport);
    if (!str(p.name)) throw new Error("proxy name is required");
    return {
      name: str(p.name),
      type: str(p.type, "tcp"),
      localIP: str(p.localIP, "127.0.0.1"),
      localPort: num(p.localPort, 0),
      remotePort: num(p.remotePort, 0),
      customDomains: strings(p.customDomains),
      subdomain: str(p.subdomain) || undefined,
      locations: strings(p.locations),
      httpUser: str(p.httpUser) || undefined,
      httpPassword: str(p.httpPassword) || undefined,
      hostHeaderRewrite: str(p.hostHeaderRewrite) || undefined,
      requestHeaders: stringMap(table(p.requestHeaders).set),
      useEncryption: tr.useEncryption === true,
      useCompression: tr.useCompression === true,
      bandwidthLimit: str(tr.bandwidthLimit) || undefined,
      bandwidthLimitMode: str(tr.bandwidthLimitMode) || undefined,
      metadatas: stringMap(p.metadatas),
      enabled: p.enabled !== false,
      secretKey: str(p.secretKey) || undefined,
      allowUsers: strings(p.allowUsers),
    } satisfies ProxyConfig;
  });
  const names = new Set<string>();
  for (const p of proxies) {
    if (names.has(p.name)) throw new Error(`proxy name [${p.name}] is duplicated`);
    names.add(p.name);
  }
  return {
    serverAddr: str(t.serverAddr, "0.0.0.0"),
    serverPort: num(t.serverPort, 7000),
    user: str(t.user),
    authToken: str(auth.token),
    metadatas: stringMap(t.metadatas),
    clientID: str(t.clientID),
    loginFailExit: t.loginFailExit !== false,
    poolCount: num(transport.poolCount, 1),
    tcpMux,
    heartbeatInterval: num(transport.heartbeatInterval, tcpMux ? -1 : 30),
    heartbeatTimeout: num(transport.heartbeatTimeout, tcpMux ? -1 : 90),
    proxies,
  };
}

export interface ProxyState {
  status: "new" | "running" | "start error";
  error?: string;
  proxyName?: string;
  remoteAddr?: string;
}

export interface FrpcClientOptions {
  hostname?: string;
  os?: string;
  arch?: string;
  version?: string;
  clientAddress?: string;
  /** run frpc's timers (heartbeats, NewProxy retries, reconnects); off for step-by-step tests */
  timers?: boolean;
  /** multiplies every frpc interval (0.01 makes a 30 s retry 300 ms) */
  timeScale?: number;
  log?: (line: string) => void;
}

/** frpc re-sends a refused NewProxy after this long (startErrTimeout, frp-protocol.md §6.1). */
const RETRY_NEW_PROXY_MS = 30_000;

/**
 * frpc's behaviour against the simulated frps: login (with its run id again after a drop), the
 * work-connection pool, NewProxy per enabled proxy, heartbeats when configured, re-sending
 * refused proxies every 30 s and logging in again with backoff when the session ends.
 */
export class FrpcClient {
  session: SimSession | null = null;
  runId: string | undefined;
  readonly proxies = new Map<string, ProxyState>();
  private timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private backoff = 0;
  lastError: string | null = null;

  constructor(
    private readonly sim: FrpsSim,
    readonly config: FrpcConfig,
    private readonly opts: FrpcClientOptions = {},
  ) {
    for (const p of config.proxies) if (p.enabled !== false) this.proxies.set(p.name, { status: "new" });
  }

  private log(line: string): void {
    this.opts.log?.(`[frpc ${this.config.user || "-"}] ${line}`);
  }

  private later(ms: number, fn: () => void): void {
    if (!this.opts.timers || this.stopped) return;
    const t = setTimeout(
      () => {
        this.timers.delete(t);
        fn();
      },
      ms * (this.opts.timeScale ?? 1),
    );
    t.unref();
    this.timers.add(t);
  }

  /** Logs in and opens every proxy; throws the login error (frpc exits when loginFailExit). */
  async start(): Promise<void> {
    this.stopped = false;
    const session = await this.sim.login({
      user: this.config.user || undefined,
      metas: Object.keys(this.config.metadatas).length ? this.config.metadatas : undefined,
      token: this.config.authToken,
      runId: this.runId,
      clientId: this.config.clientID || undefined,
      poolCount: this.config.poolCount,
      version: this.opts.version,
      hostname: this.opts.hostname,
      os: this.opts.os,
      arch: this.opts.arch,
      clientAddress: this.opts.clientAddress,
    });
    this.session = session;
    this.runId = session.runId;
    this.backoff = 0;
    this.lastError = null;
    this.log(`login to server success, get run id [${session.runId}]`);
    session.onClose((reason) => this.onSessionClosed(session, reason));
    for (const s of this.proxies.values()) s.status = "new";
    // NewWorkConn and NewProxy run concurrently on a real frps; the pool first keeps logs ordered.
    await session.fillPool();
    await this.openProxies();
    if (this.config.heartbeatInterval > 0) this.later(0, () => void this.heartbeatLoop(session));
  }

  /** Sends NewProxy for every proxy that is not running. */
  async openProxies(): Promise<void> {
    const session = this.session;
    if (!session?.online) return;
    let failed = false;
    for (const cfg of this.config.proxies) {
      const state = this.proxies.get(cfg.name);
      if (!state || state.status === "running") continue;
      try {
        const r = await session.newProxy(cfg);
        const expected = this.config.user ? `${this.config.user}.${cfg.name}` : cfg.name;
        // frpc matches the answer by name: a plugin that renamed the proxy leaves frpc without it.
        if (r.proxyName !== expected) throw new Error(`proxy [${r.proxyName}] not found`);
        this.proxies.set(cfg.name, { status: "running", proxyName: r.proxyName, remoteAddr: r.remoteAddr });
        this.log(`[${cfg.name}] start proxy success${r.remoteAddr ? ` (${r.remoteAddr})` : ""}`);
      } catch (err) {
        failed = true;
        this.proxies.set(cfg.name, { status: "start error", error: (err as Error).message });
        this.log(`[${cfg.name}] start error: ${(err as Error).message}`);
      }
    }
    if (failed) this.later(RETRY_NEW_PROXY_MS, () => void this.openProxies());
  }

  /**
   * One heartbeat; false when refused. frps only answers `Pong{error}`: stock frpc closes its own
   * session on it (client/control.go handlePong), frps sees the control go and closes the
   * proxies, and a re-login follows.
   */
  async heartbeat(): Promise<boolean> {
    const session = this.session;
    if (!session?.online) return false;
    try {
      await session.ping();
      return true;
    } catch (err) {
      this.lastError = (err as Error).message;
      this.log(`pong message contains error: ${this.lastError}`);
      await session.end(`pong error: ${this.lastError}`);
      return false;
    }
  }

  private async heartbeatLoop(session: SimSession): Promise<void> {
    if (this.stopped || this.session !== session || !session.online) return;
    await this.heartbeat();
    if (session.online) this.later(this.config.heartbeatInterval * 1000, () => void this.heartbeatLoop(session));
  }

  private onSessionClosed(session: SimSession, reason: string): void {
    // frpc closes its session whichever side ended it: with tcpMux the work connections in use
    // are streams of it and close too (counted by frps then, unless frps restarted).
    if (this.config.tcpMux) session.dropConnections();
    if (this.session !== session) return;
    this.log(`session closed: ${reason}`);
    for (const s of this.proxies.values()) s.status = "new";
    this.session = null;
    if (!this.stopped) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    // frpc's backoff: about 2 s, 4 s, 8 s, then 20 s at most when re-logging after a drop.
    this.backoff = Math.min(this.backoff ? this.backoff * 2 : 2000, 20_000);
    this.later(this.backoff, () => void this.reconnect());
  }

  /** Logs in again with the same run id, as frpc does after losing its session. */
  async reconnect(): Promise<boolean> {
    if (this.stopped) return false;
    try {
      await this.start();
      return true;
    } catch (err) {
      this.lastError = (err as Error).message;
      this.log(`login to server failed: ${this.lastError}`);
      this.scheduleReconnect();
      return false;
    }
  }

  /** Generates a visitor connection on one of this client's proxies (by its frpc-side name). */
  visit(
    localName: string,
    o: { bytesIn?: number; bytesOut?: number; remoteAddr?: string; hold?: boolean } = {},
  ): Promise<HeldConn> {
    const state = this.proxies.get(localName);
    const name = state?.proxyName ?? (this.config.user ? `${this.config.user}.${localName}` : localName);
    return this.sim.visit(name, o);
  }

  /** Stops frpc gracefully: CloseProxy for each proxy, then the session ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const s = this.session;
    this.session = null;
    if (s?.online) await s.end("frpc stopped");
  }
}
