import {
  domainApex,
  formatPorts,
  isSecretProtocol,
  isWildcard,
  REACH_LIMIT,
  REACH_WINDOW_MS,
  type ReachConnect,
  type ReachDns,
  type ReachHttp,
  type ReachReport,
  type ReachVerdict,
  type TunnelProtocol,
  TunnelStatus,
} from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { invalid, notFound, rateLimited } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { AppState } from "../../shared/module";
import { transact } from "../../shared/tx";
import { makeResolver, targetRecord } from "../domains/dns-check";
import { findOwnTunnel, type TunnelJoinedRow, tunnelDomains } from "../tunnels/tunnels.repository";
import { checkName, nodeAddresses, type ReachResolver } from "./names";
import { type HttpOutcome, httpProbe, tcpProbe } from "./probes";

/** The resolver the checks use (DNS_SERVERS, else the system's); tests put a stub here. */
export const reachState = new AppState<{ resolver: ReachResolver }>("reach", (ctx) => ({
  resolver: makeResolver(ctx.config.DNS_SERVERS),
}));

/** Time limits: all of it within 10 s (DNS, then the connect and the requests side by side). */
const DNS_MS = 2500;
const CONNECT_MS = 3000;
/**
 * How long a connected socket is watched for frps closing it without a byte (frpc could not reach
 * the local service: frps learns it within a round trip to frpc). Short enough that a service
 * which ends idle connections itself (after a second or more) is not mistaken for a refusal.
 */
const HOLD_MS = 600;
const HTTP_MS = 5000;
/** names requested through the vhost port, at most */
const HTTP_NAMES = 5;
/** a certificate this close to its end is a problem */
const CERT_WARN_DAYS = 14;

/**
 * 外网检测 (issue 33 §9): counts the check under the customer's lock (REACH_LIMIT an hour, before
 * any slow work), then checks the tunnel from outside — its names' DNS, a connect to the node's
 * port, for http(s) a request through the node's vhost port — and says what to fix. Another
 * customer's tunnel is 404.
 */
export async function checkReach(ctx: AppContext, uid: number, tunId: number): Promise<ReachReport> {
  const started = performance.now();
  const now = Date.now();
  const checkedAt = new Date(now).toISOString();
  const { t, used, id } = await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const t = await findOwnTunnel(trx, uid, tunId);
    if (!t) throw notFound("隧道");
    // stcp/xtcp/sudp open no port on the node: there is nothing outside to check (and nothing counted).
    if (isSecretProtocol(t.protocol))
      throw invalid("tunid", "私密隧道不在节点上开放端口，外网无法直接访问：请在访问端用访问者配置连接");
    const since = new Date(now - REACH_WINDOW_MS).toISOString();
    const rows = await trx
      .selectFrom("reach_checks")
      .select([sql<number>`count(*)`.as("n"), sql<string | null>`min(created_at)`.as("oldest")])
      .where("uid", "=", uid)
      .where("created_at", ">", since)
      .executeTakeFirstOrThrow();
    const used = Number(rows.n);
    if (used >= REACH_LIMIT) {
      const freeAt = new Date(rows.oldest ?? checkedAt).getTime() + REACH_WINDOW_MS;
      throw rateLimited(Math.max(1, Math.ceil((freeAt - now) / 1000)));
    }
    const row = await trx
      .insertInto("reach_checks")
      .values({ uid, tun_id: tunId, verdict: null, created_at: checkedAt })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { t, used: used + 1, id: row.id };
  });
  const found = await probe(reachState.of(ctx).resolver, t);
  await ctx.db.updateTable("reach_checks").set({ verdict: found.verdict }).where("id", "=", id).execute();
  return {
    tun_id: t.tun_id,
    protocol: t.protocol as TunnelProtocol,
    checked_at: checkedAt,
    duration_ms: Math.round(performance.now() - started),
    ...found,
    remaining: REACH_LIMIT - used,
  };
}

type Found = Pick<ReachReport, "verdict" | "summary" | "problems" | "node" | "dns" | "connect" | "http">;

/**
 * The label 外网检测 asks for under a wildcard tunnel's `*.<apex>` (no query or Host can be the
 * literal `*`): the wildcard DNS record answers it and frps routes it to the wildcard's proxy, unless
 * someone holds that exact name (docs/domains.md).
 */
export const WILDCARD_PROBE_LABEL = "burrow-check";
const probeName = (name: string): string => (isWildcard(name) ? `${WILDCARD_PROBE_LABEL}.${domainApex(name)}` : name);

async function probe(resolver: ReachResolver, t: TunnelJoinedRow): Promise<Found> {
  const node = { host: t.node_host, addresses: [] as string[] };
  const base = { node, dns: [], connect: null, http: [] };
  if (t.status === TunnelStatus.Locked)
    return { ...base, ...say("locked", `隧道已被锁定（${t.banned_reason || "未说明原因"}），外网访问被拒绝`) };
  if (!t.enabled) return { ...base, ...say("disabled", "隧道已停用：启用后 frpc 才能上线") };

  const resolved = await nodeAddresses(resolver, t.node_host, DNS_MS);
  node.addresses = resolved.addresses;
  const web = t.protocol === "http" || t.protocol === "https";
  const port = web ? (t.protocol === "http" ? t.node_http_port : t.node_https_port) : t.remote_port;
  const address = resolved.addresses[0] ?? null;
  if (!address || !port) {
    const why = resolved.error ?? `节点未开放 ${t.protocol} 端口`;
    return { ...base, ...say("unreachable", `${why}，外网无法访问`) };
  }

  const held = web
    ? tunnelDomains({ custom_domains: JSON.parse(t.custom_domains), subdomain: t.subdomain }, t.node_subdomain_host)
    : [];
  const names = held.map(probeName);
  const customs = new Set(JSON.parse(t.custom_domains) as string[]);
  const target = { host: t.node_host, subdomain_host: t.node_subdomain_host };
  const udp = t.protocol === "udp";
  const [dns, tcp, pages] = await Promise.all([
    Promise.all(
      held.map((n, i) =>
        checkName(resolver, names[i], resolved.addresses, customs.has(n) ? targetRecord(n, target) : null, DNS_MS),
      ),
    ),
    // UDP has nothing to connect to: frps answers nothing a prober could tell from silence.
    udp ? null : tcpProbe(address, port, CONNECT_MS, web ? 0 : HOLD_MS),
    Promise.all(names.slice(0, HTTP_NAMES).map((n) => httpProbe(address, port, n, t.protocol === "https", HTTP_MS))),
  ]);
  const connect: ReachConnect | null = tcp && {
    host: t.node_host,
    address,
    port,
    ok: tcp.connected,
    ms: tcp.ms,
    detail:
      (tcp.connected ? `已连接 ${t.node_host}:${port}（${tcp.ms} ms）` : `${t.node_host}:${port} ${tcp.error}`) +
      // a range's ports share one frpc session and local host: its first port stands for all of them
      (t.remote_port_end ? `（端口范围 ${formatPorts(t.remote_port, t.remote_port_end)}，检测首个端口）` : ""),
  };
  const http = pages.map((p, i) => present(names[i], port, t.protocol === "https", p));
  const verdict = judge(t, tcp, pages, dns);
  const problems = [
    ...(verdict.verdict === "ok" || verdict.verdict === "unverified" ? [] : [verdict.summary]),
    ...dns.flatMap((d) => (d.problem ? [d.problem] : [])),
    ...http.flatMap((h) => {
      const c = h.cert;
      if (!c) return [];
      if (c.problem) return [`${h.url} 的${c.problem}`];
      return c.days_left < CERT_WARN_DAYS ? [`${h.url} 的证书将在 ${c.days_left} 天后过期`] : [];
    }),
  ];
  return {
    node,
    dns,
    connect,
    http,
    verdict: verdict.verdict,
    summary: verdict.summary,
    problems: [...new Set(problems)],
  };
}

const say = (verdict: ReachVerdict, summary: string) => ({
  verdict,
  summary,
  problems: verdict === "ok" ? [] : [summary],
});

function present(name: string, port: number, secure: boolean, p: HttpOutcome): ReachHttp {
  const scheme = secure ? "https" : "http";
  const url = `${scheme}://${name}${port === (secure ? 443 : 80) ? "" : `:${port}`}/`;
  const detail = p.error
    ? p.error
    : p.frpNotFound
      ? "节点返回 frp 的 404 页面（此域名没有在线的隧道，或 frpc 连不上本地服务）"
      : `HTTP ${p.status}${p.title ? `，标题「${p.title}」` : ""}`;
  return { url, status: p.status, title: p.frpNotFound ? null : p.title, detail, cert: p.cert };
}

/** The one verdict, in the order a customer fixes things: frpc, the local service, the node, DNS. */
function judge(
  t: TunnelJoinedRow,
  tcp: Awaited<ReturnType<typeof tcpProbe>> | null,
  pages: HttpOutcome[],
  dns: ReachDns[],
): { verdict: ReachVerdict; summary: string } {
  const online = t.status === TunnelStatus.Connected;
  const local = `${t.local_ip}:${t.local_port}`;
  const offline = {
    verdict: "frpc_offline" as const,
    summary: "frpc 未连接：节点上没有这条隧道。请启动 frpc（或重新下载配置后重启），再检测",
  };
  const refused = {
    verdict: "local_refused" as const,
    summary: `frpc 已连接，但本地服务 ${local} 拒绝连接或无响应：请确认本地服务已启动并监听该端口`,
  };
  if (t.protocol === "udp")
    return online ? { verdict: "unverified", summary: "frpc 已连接；UDP 隧道无法从外部确认本地服务是否应答" } : offline;
  if (tcp && !tcp.connected) {
    if (tcp.refused && t.protocol === "tcp") return offline;
    return {
      verdict: "unreachable",
      summary: `连接节点 ${t.node_host} 失败（${tcp.error}）：节点离线，或防火墙、安全组未放行该端口`,
    };
  }
  if (t.protocol === "tcp") return tcp?.closedEarly ? (online ? refused : offline) : ok(`TCP 连接正常`);
  const first = pages[0];
  if (first) {
    // frps answers an unknown name and a failed proxy with the same page: the console's own record
    // of the proxy (NewProxy accepted, not closed) tells the two apart.
    if (first.frpNotFound || (first.status === null && t.protocol === "https")) return online ? refused : offline;
    if (first.status === 504) return refused;
    if (first.status === null) return { verdict: "unreachable", summary: `请求失败：${first.error}` };
  }
  const wrong = dns.find((d) => !d.ok);
  if (wrong) return { verdict: "dns_wrong", summary: `隧道本身正常，但${wrong.problem}` };
  return ok(first ? `HTTP ${first.status}${first.title ? `「${first.title}」` : ""}` : "");
}

const ok = (what: string) => ({ verdict: "ok" as const, summary: `外网可以访问${what ? `：${what}` : ""}` });

/** The pruning job: checks older than a day no longer count (the window is an hour) and go. */
export async function pruneReachChecks(ctx: AppContext, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - 24 * REACH_WINDOW_MS).toISOString();
  const r = await ctx.db.deleteFrom("reach_checks").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
