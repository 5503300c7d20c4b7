import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type DashboardScript, type FrpsSim, type ProxyStatsEntry, versionAtLeast } from "./frps";

export interface Dashboard {
  url: string;
  close(): Promise<void>;
}

type Send = (res: ServerResponse, status: number, body: unknown) => true;

function send(res: ServerResponse, status: number, body: unknown): true {
  // Go's json.Encoder ends the body with a newline.
  res.writeHead(status, { "content-type": "application/json" });
  res.end(`${JSON.stringify(body)}\n`);
  return true;
}

/**
 * Before 0.67.0 the handlers json.Marshal the body into GeneralResponse.Msg and write it with no
 * Content-Type (Go sniffs text/plain) and no newline; an error is its message as plain text, and
 * a successful DELETE has an empty body.
 */
function sendPre067(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  const error = body as { Code?: number; Msg?: string } | null;
  if (error && typeof error === "object" && "Code" in error && "Msg" in error)
    res.end(error.Code === 200 ? "" : String(error.Msg));
  else res.end(JSON.stringify(body));
  return true;
}

/** A sender that applies a scripted answer (delay, replaced body, a slow or huge stream). */
function scripted(script: DashboardScript, send: Send): Send {
  return (res, status, body) => {
    const answer = () => {
      if (res.destroyed) return;
      const out = script.body ? script.body(body) : body;
      if (!script.dripBytes) return void send(res, status, out);
      res.writeHead(status, { "content-type": "application/json" });
      res.write('{"filler":"');
      let left = script.dripBytes;
      const chunk = "x".repeat(Math.max(1, script.dripChunk ?? 64 * 1024));
      const drip = () => {
        if (res.destroyed) return;
        if (left <= 0) return void res.end(`","proxies":[]}\n`);
        const n = Math.min(left, chunk.length);
        left -= n;
        res.write(chunk.slice(0, n));
        setTimeout(drip, script.dripIntervalMs ?? 0);
      };
      drip();
    };
    if (script.delayMs) setTimeout(answer, script.delayMs);
    else answer();
    return true;
  };
}

/** camelCase (v0.52.1+) or snake_case (≤ v0.52.0) keys. */
function keys<T extends Record<string, unknown>>(
  legacy: boolean,
  camel: T,
  snake: Record<string, string>,
): Record<string, unknown> {
  if (!legacy) return camel;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(camel)) out[snake[k] ?? k] = v;
  return out;
}

const SERVER_SNAKE: Record<string, string> = {
  bindPort: "bind_port",
  vhostHTTPPort: "vhost_http_port",
  vhostHTTPSPort: "vhost_https_port",
  tcpmuxHTTPConnectPort: "tcpmux_httpconnect_port",
  kcpBindPort: "kcp_bind_port",
  quicBindPort: "quic_bind_port",
  subdomainHost: "subdomain_host",
  maxPoolCount: "max_pool_count",
  maxPortsPerClient: "max_ports_per_client",
  heartbeatTimeout: "heart_beat_timeout",
  allowPortsStr: "allow_ports_str",
  totalTrafficIn: "total_traffic_in",
  totalTrafficOut: "total_traffic_out",
  curConns: "cur_conns",
  clientCounts: "client_counts",
  proxyTypeCount: "proxy_type_count",
};
const PROXY_SNAKE: Record<string, string> = {
  todayTrafficIn: "today_traffic_in",
  todayTrafficOut: "today_traffic_out",
  curConns: "cur_conns",
  lastStartTime: "last_start_time",
  lastCloseTime: "last_close_time",
};

/** The server-side `conf` reconstruction (frp-protocol.md §2.4); null when offline. */
function conf(e: ProxyStatsEntry): Record<string, unknown> | null {
  if (!e.online || !e.content) return null;
  const c = e.content;
  const transport: Record<string, unknown> = {};
  if (c.use_encryption) transport.useEncryption = true;
  if (c.use_compression) transport.useCompression = true;
  transport.bandwidthLimit = c.bandwidth_limit ?? "";
  transport.bandwidthLimitMode = c.bandwidth_limit_mode === "server" ? "server" : "client";
  const out: Record<string, unknown> = { name: e.name, type: e.type, transport };
  if (c.metas && Object.keys(c.metas as object).length) out.metadatas = c.metas;
  Object.assign(out, {
    loadBalancer: { group: "" },
    healthCheck: { type: "", intervalSeconds: 0 },
    localIP: "127.0.0.1",
    plugin: null,
  });
  if (e.type === "tcp" || e.type === "udp") out.remotePort = e.remotePort;
  if (e.type === "http" || e.type === "https") {
    if (c.custom_domains?.length) out.customDomains = c.custom_domains;
    if (c.subdomain) out.subdomain = c.subdomain;
  }
  if (e.type === "http") {
    out.locations = c.locations?.length ? c.locations : null;
    out.hostHeaderRewrite = (c.host_header_rewrite as string | undefined) ?? "";
  }
  return out;
}

/** ≤ 0.52.0 answers with snake_case keys. */
const legacyKeys = (sim: FrpsSim) => Boolean(sim.opts.legacyKeys) || !versionAtLeast(sim.version, "0.52.1");

function proxyInfo(sim: FrpsSim, e: ProxyStatsEntry): Record<string, unknown> {
  const legacy = legacyKeys(sim);
  const body: Record<string, unknown> = { name: e.name, conf: conf(e) };
  // user and clientID since 0.67.0 (omitempty); clientVersion (omitempty, online only) until 0.68.0
  if (versionAtLeast(sim.version, "0.67.0")) {
    if (e.user) body.user = e.user;
    if (e.clientId) body.clientID = e.clientId;
  }
  if (!versionAtLeast(sim.version, "0.68.0")) {
    const v = e.online && e.runId ? sim.liveSessions.find((s) => s.runId === e.runId)?.version : "";
    if (v) body[legacy ? "client_version" : "clientVersion"] = v;
  }
  Object.assign(
    body,
    keys(
      legacy,
      {
        todayTrafficIn: e.trafficIn[0],
        todayTrafficOut: e.trafficOut[0],
        curConns: e.curConns,
        lastStartTime: e.lastStartTime,
        lastCloseTime: e.lastCloseTime,
      },
      PROXY_SNAKE,
    ),
  );
  body.status = e.online ? "online" : "offline";
  return body;
}

function serverInfo(sim: FrpsSim): Record<string, unknown> {
  const o = sim.opts;
  const allow = (o.allowPorts ?? []).map((a) => ("single" in a ? String(a.single) : `${a.start}-${a.end}`)).join(",");
  const body: Record<string, unknown> = {
    version: sim.version,
    bindPort: o.bindPort ?? 7000,
    vhostHTTPPort: o.vhostHTTPPort ?? 0,
    vhostHTTPSPort: o.vhostHTTPSPort ?? 0,
    tcpmuxHTTPConnectPort: 0,
    kcpBindPort: 0,
    quicBindPort: 0,
    subdomainHost: o.subDomainHost ?? "",
    maxPoolCount: o.maxPoolCount ?? 5,
    maxPortsPerClient: o.maxPortsPerClient ?? 0,
    heartbeatTimeout: sim.heartbeatTimeout,
    ...(allow && { allowPortsStr: allow }),
    totalTrafficIn: sim.serverIn[0],
    totalTrafficOut: sim.serverOut[0],
    curConns: [...sim.stats.values()].reduce((n, e) => n + e.curConns, 0),
    clientCounts: sim.clientCount,
    proxyTypeCount: sim.proxyTypeCount(),
  };
  return keys(legacyKeys(sim), body, SERVER_SNAKE);
}

function authorized(sim: FrpsSim, req: IncomingMessage): boolean {
  const { user = "", password = "" } = sim.opts.webServer ?? {};
  if (!user && !password) return true;
  const h = req.headers.authorization ?? "";
  if (!h.startsWith("Basic ")) return false;
  const [u, ...rest] = Buffer.from(h.slice(6), "base64").toString().split(":");
  return u === user && rest.join(":") === password;
}

/** Answers one authorised request (always answers: unknown paths get Go's 404 text). */
function route(sim: FrpsSim, req: IncomingMessage, res: ServerResponse, send: Send): true {
  const url = new URL(req.url ?? "/", "http://x");
  const path = url.pathname;
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const notFoundProxy = () => send(res, 404, { Code: 404, Msg: "no proxy info found" });
  if (req.method === "GET" && path === "/api/serverinfo") return send(res, 200, serverInfo(sim));
  if (req.method === "GET" && parts[0] === "api" && parts[1] === "proxy" && parts.length === 3) {
    const list = [...sim.stats.values()]
      .filter((e) => e.type === parts[2])
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((e) => proxyInfo(sim, e));
    return send(res, 200, { proxies: list });
  }
  if (req.method === "GET" && parts[0] === "api" && parts[1] === "proxy" && parts.length === 4) {
    const e = sim.stats.get(parts[3]);
    return e && e.type === parts[2] ? send(res, 200, proxyInfo(sim, e)) : notFoundProxy();
  }
  const v067 = versionAtLeast(sim.version, "0.67.0");
  if (v067 && req.method === "GET" && parts[0] === "api" && parts[1] === "proxies" && parts.length === 3) {
    const e = sim.stats.get(parts[2]);
    return e ? send(res, 200, proxyInfo(sim, e)) : notFoundProxy();
  }
  if (req.method === "GET" && parts[0] === "api" && parts[1] === "traffic" && parts.length === 3) {
    const e = sim.stats.get(parts[2]);
    if (!e) return notFoundProxy();
    const legacy = legacyKeys(sim);
    return send(res, 200, {
      name: e.name,
      [legacy ? "traffic_in" : "trafficIn"]: e.trafficIn,
      [legacy ? "traffic_out" : "trafficOut"]: e.trafficOut,
    });
  }
  if (req.method === "DELETE" && path === "/api/proxies") {
    if (url.searchParams.get("status") !== "offline")
      return send(res, 400, { Code: 400, Msg: "status only support offline" });
    sim.pruneOffline();
    return send(res, 200, { Code: 200, Msg: "success" });
  }
  if (v067 && req.method === "GET" && path === "/api/clients") {
    const list = sim.liveSessions.map((s) => ({
      key: s.user ? `${s.user}.${s.clientId || s.runId}` : s.clientId || s.runId,
      user: s.user,
      clientID: s.clientId || s.runId,
      runID: s.runId,
      version: s.version,
      hostname: s.hostname,
      clientIP: s.clientAddress.replace(/:\d+$/, ""),
      firstConnectedAt: s.connectedAt,
      lastConnectedAt: s.connectedAt,
      online: true,
    }));
    return send(res, 200, list);
  }
  res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
  res.end("404 page not found\n");
  return true;
}

/** Serves the dashboard API (basic auth everywhere but /healthz) on webServer.addr:port. */
export async function startDashboard(sim: FrpsSim): Promise<Dashboard> {
  const ws = sim.opts.webServer ?? {};
  const server = createServer((req, res) => {
    if (req.url?.split("?")[0] === "/healthz") {
      res.writeHead(200);
      res.end();
      return;
    }
    if (!authorized(sim, req)) {
      setTimeout(() => {
        res.writeHead(401, {
          "www-authenticate": 'Basic realm="Restricted"',
          "content-type": "text/plain; charset=utf-8",
        });
        res.end("Unauthorized\n");
      }, sim.opts.authFailDelayMs ?? 200);
      return;
    }
    try {
      const script = sim.dashboardScript?.(req.url?.split("?")[0] ?? "/");
      const plain = versionAtLeast(sim.version, "0.67.0") ? send : sendPre067;
      route(sim, req, res, script ? scripted(script, plain) : plain);
    } catch (err) {
      send(res, 500, { Code: 500, Msg: (err as Error).message });
    }
  });
  const host = ws.addr ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(ws.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
