import {
  type CloseProxyContent,
  type LoginContent,
  type NewProxyContent,
  type NewUserConnContent,
  NodeStatus,
  type PluginResponse,
  type PluginUserInfo,
  parseFrpProxyName,
  parseFrpUser,
  TunnelStatus,
} from "@burrow/contract";
import type { Logger } from "pino";
import {
  type FrpDecisionCache,
  type NodeEntry,
  secretEquals,
  type TunnelEntry,
  tunnelBlock,
  type UserEntry,
} from "./decision-cache";
import type { FrpWriter } from "./frp-writer";

/** The canonical answers of frp-protocol.md §1.3. `unchange` is always explicit: absent means "replace". */
export const ALLOW: PluginResponse = Object.freeze({ reject: false, unchange: true });
/** A refusal; frpc sees `reason` (detailedErrorsToClient is on in Burrow's frps.toml). */
export const reject = (reason: string): PluginResponse => ({ reject: true, reject_reason: reason });
const modify = <C>(content: C): PluginResponse<C> => ({ reject: false, unchange: false, content });

/** An HTTP status and body for the plugin route. */
export interface PluginAnswer {
  status: number;
  body: PluginResponse;
}

/** Bytes per second of a Mbps rate, as frp's "<float>KB" quantity (KB = 1024 bytes, exact for any whole Mbps). */
export function bandwidthQuantity(mbps: number): string {
  return `${(mbps * 125_000) / 1024}KB`;
}

/** The smallest positive of the tunnel's, plan's and node's bandwidth (Mbps), 0 when none is set. */
export function effectiveBandwidth(...mbps: number[]): number {
  const set = mbps.filter((m) => m > 0);
  return set.length ? Math.min(...set) : 0;
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a.map((s) => s.toLowerCase()))].sort();
  const y = [...new Set(b.map((s) => s.toLowerCase()))].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

type Checked = { user: UserEntry } | { reason: string };

/**
 * Decides every frps plugin call from the in-memory cache (decision-cache.ts) and hands what it
 * learns (tunnel online/offline, visitor connections) to the write-behind writer.
 */
export class FrpPlugin {
  constructor(
    private readonly cache: FrpDecisionCache,
    private readonly writer: FrpWriter,
    private readonly log: Logger,
  ) {}

  /**
   * Authenticates the node (secret from the URL path, compared in constant time) and answers one
   * plugin request. Unknown node or wrong secret is 403: frps then fails the operation.
   */
  async handle(nodeId: number, secret: string, body: unknown): Promise<PluginAnswer> {
    const node = Number.isSafeInteger(nodeId) && nodeId > 0 ? await this.cache.node(nodeId) : null;
    if (!node || !secretEquals(secret, node.secret)) {
      return { status: 403, body: reject("invalid plugin credentials") };
    }
    const req = body as { op?: unknown; content?: unknown } | null;
    if (!req || typeof req !== "object" || typeof req.content !== "object" || req.content === null) {
      return { status: 400, body: reject("malformed plugin request") };
    }
    const answer = await this.decide(node, String(req.op), req.content);
    if (answer.reject)
      this.log.debug({ node_id: nodeId, op: req.op, reason: answer.reject_reason }, "frp plugin reject");
    return { status: 200, body: answer };
  }

  private decide(node: NodeEntry, op: string, content: object): PluginResponse | Promise<PluginResponse> {
    switch (op) {
      case "Login":
        return this.login(node, content as LoginContent);
      case "NewProxy":
        return this.newProxy(node, content as NewProxyContent);
      case "Ping":
        return this.ping(node, content as { user: PluginUserInfo });
      case "NewWorkConn":
        return this.userOnly(node, content as { user: PluginUserInfo });
      case "NewUserConn":
        return this.newUserConn(node, content as NewUserConnContent);
      case "CloseProxy":
        return this.closeProxy(node, content as CloseProxyContent);
      default:
        // An op this version does not know: do not stand in frps's way.
        return ALLOW;
    }
  }

  /** User exists and is active, token matches, plan usable (not expired, quota left), level fits the node. */
  private async checkUser(
    node: NodeEntry,
    user: string | undefined,
    metas: Record<string, string> | null | undefined,
  ): Promise<Checked> {
    if (node.status === NodeStatus.OffShelf) return { reason: "节点已下架" };
    const uid = parseFrpUser(user);
    if (uid === null) return { reason: "未知用户：请使用控制台生成的 frpc 配置（user 字段）" };
    const entry = await this.cache.user(uid);
    if (!entry) return { reason: "用户不存在" };
    if (!entry.active) return { reason: "账号已被封禁" };
    const token = metas?.token;
    if (typeof token !== "string" || !token) return { reason: "缺少访问令牌：配置中需要 metadatas.token" };
    if (!secretEquals(token, entry.token)) return { reason: "访问令牌无效，请重新下载配置文件" };
    const limits = entry.limits;
    if (!limits) return { reason: "没有生效中的套餐" };
    if (entry.endMs !== null && entry.endMs <= Date.now()) return { reason: "套餐已过期" };
    if (!limits.usable) return { reason: limits.reason ?? "流量已用尽" };
    // Ranks are in memory after the first call; await only then (this runs for every visitor).
    let nodeRank = this.cache.levelRank(node.level_id);
    if (typeof nodeRank !== "number") nodeRank = await nodeRank;
    let planRank = this.cache.levelRank(limits.level_id);
    if (typeof planRank !== "number") planRank = await planRank;
    if (nodeRank > planRank) return { reason: "套餐等级不足，无法使用该节点" };
    return { user: entry };
  }

  private async login(node: NodeEntry, c: LoginContent): Promise<PluginResponse> {
    const r = await this.checkUser(node, c.user, c.metas);
    return "reason" in r ? reject(r.reason) : ALLOW;
  }

  /** Finds the tunnel behind a proxy name on this node, or says why there is none. */
  private tunnelOf(node: NodeEntry, user: UserEntry, proxyName: string | undefined): TunnelEntry | string {
    const parsed = parseFrpProxyName(proxyName);
    if (!parsed || parsed.uid !== user.uid) return `未知隧道 ${proxyName ?? ""}：请使用控制台生成的配置`.trim();
    const t = user.tunnels.get(parsed.tun_id);
    if (!t) return `隧道 ${parsed.tun_id} 不存在`;
    if (t.node_id !== node.node_id) return `隧道 ${t.tun_name} 不属于此节点`;
    return t;
  }

  /**
   * The proxy must be one of the user's tunnels on this node, not locked, deleted or turned off,
   * with the same type, port and domains. The answer returns the full content with the plan's
   * bandwidth enforced by frps (`bandwidth_limit_mode = "server"`).
   */
  private async newProxy(node: NodeEntry, c: NewProxyContent): Promise<PluginResponse> {
    const r = await this.checkUser(node, c.user?.user, c.user?.metas);
    if ("reason" in r) return reject(r.reason);
    const t = this.tunnelOf(node, r.user, c.proxy_name);
    if (typeof t === "string") return reject(t);
    const blocked = tunnelBlock(t);
    if (blocked) return reject(blocked);
    const type = c.proxy_type || "tcp";
    if (type !== t.protocol) return reject(`隧道 ${t.tun_name} 的类型应为 ${t.protocol}，配置中是 ${type}`);
    let remotePort = c.remote_port;
    if (t.protocol === "tcp" || t.protocol === "udp") {
      if (!c.remote_port) remotePort = t.remote_port ?? undefined;
      else if (c.remote_port !== t.remote_port)
        return reject(`隧道 ${t.tun_name} 的远程端口应为 ${t.remote_port}，请重新下载配置文件`);
    } else {
      if (!sameSet(c.custom_domains ?? [], t.custom_domains))
        return reject(`隧道 ${t.tun_name} 的自定义域名与控制台不一致，请重新下载配置文件`);
      if ((c.subdomain ?? "").toLowerCase() !== (t.subdomain ?? ""))
        return reject(`隧道 ${t.tun_name} 的子域名与控制台不一致，请重新下载配置文件`);
    }
    const mbps = effectiveBandwidth(t.bandwidth, r.user.limits?.bandwidth ?? 0, node.bandwidth);
    // The request's content comes back whole, with the limit set, or without a limit (a limit
    // the client sent must not linger either).
    const { bandwidth_limit: _limit, bandwidth_limit_mode: _mode, ...rest } = c;
    const out: NewProxyContent =
      mbps > 0
        ? { ...rest, remote_port: remotePort, bandwidth_limit: bandwidthQuantity(mbps), bandwidth_limit_mode: "server" }
        : { ...rest, remote_port: remotePort };
    // frpc re-sends NewProxy after errors and reconnects: write only what changed.
    if (t.run_id !== c.user.run_id || t.status !== TunnelStatus.Connected) {
      this.cache.setRunId(r.user.uid, t.tun_id, c.user.run_id, true);
      this.writer.online(t.tun_id, r.user.uid, c.user.run_id);
    }
    return modify(out);
  }

  /**
   * Re-checks the user (ban, token, plan, quota) and refuses the heartbeat of a session that
   * still holds a tunnel that was locked, deleted or turned off: frpc then drops the session and
   * logs in again, and the blocked tunnel cannot open any more.
   */
  private async ping(node: NodeEntry, c: { user: PluginUserInfo }): Promise<PluginResponse> {
    const r = await this.checkUser(node, c.user?.user, c.user?.metas);
    if ("reason" in r) return reject(r.reason);
    const runId = c.user.run_id;
    if (runId) {
      for (const t of r.user.tunnels.values()) {
        if (t.node_id !== node.node_id || t.run_id !== runId) continue;
        const blocked = tunnelBlock(t);
        if (blocked) return reject(`${blocked}，连接已断开`);
      }
    }
    return ALLOW;
  }

  private async userOnly(node: NodeEntry, c: { user: PluginUserInfo }): Promise<PluginResponse> {
    const r = await this.checkUser(node, c.user?.user, c.user?.metas);
    return "reason" in r ? reject(r.reason) : ALLOW;
  }

  /** Refuses visitors of blocked tunnels at once and records each accepted connection. */
  private async newUserConn(node: NodeEntry, c: NewUserConnContent): Promise<PluginResponse> {
    const r = await this.checkUser(node, c.user?.user, c.user?.metas);
    if ("reason" in r) return reject(r.reason);
    const t = this.tunnelOf(node, r.user, c.proxy_name);
    if (typeof t === "string") return reject(t);
    const blocked = tunnelBlock(t);
    if (blocked) return reject(blocked);
    this.writer.conn({
      tun_id: t.tun_id,
      uid: t.uid,
      node_id: node.node_id,
      proxy_type: c.proxy_type || t.protocol,
      remote_addr: String(c.remote_addr ?? "").slice(0, 100),
      at: Date.now(),
    });
    return ALLOW;
  }

  /** The tunnel went offline. frps ignores this answer, so it is always "allow". */
  private async closeProxy(node: NodeEntry, c: CloseProxyContent): Promise<PluginResponse> {
    const uid = parseFrpUser(c.user?.user);
    const parsed = parseFrpProxyName(c.proxy_name);
    if (uid === null || !parsed || parsed.uid !== uid) return ALLOW;
    const user = await this.cache.user(uid);
    const t = user?.tunnels.get(parsed.tun_id);
    if (!t || t.node_id !== node.node_id) return ALLOW;
    this.cache.setRunId(uid, t.tun_id, null, false);
    this.writer.offline(t.tun_id, uid, c.user.run_id, tunnelBlock(t) !== null);
    return ALLOW;
  }
}
