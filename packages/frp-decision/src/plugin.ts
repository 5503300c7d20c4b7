/**
 * The frps plugin's decisions (frp-protocol.md §1), one copy for the console (direct mode: frps
 * calls the console) and the node agent (frps calls the agent on 127.0.0.1). It reads a
 * DecisionState and hands what it learns to a DecisionWriter; it knows no database or network.
 */
import {
  type CloseProxyContent,
  type LoginContent,
  type NewProxyContent,
  type NewUserConnContent,
  NodeStatus,
  type PluginDecisionKind,
  type PluginResponse,
  type PluginUserInfo,
  parseFrpProxyName,
  parseFrpUser,
} from "@burrow/contract";
import { type NodeEntry, secretEquals, type TunnelEntry, tunnelBlock, type UserEntry, userBlock } from "./entries";
import { proxyPort, withLimits } from "./new-proxy";
import { ALLOW, ALLOWED, chain, modify, type PluginAnswer, reject } from "./plugin-answer";
import { domainBlock, dropMovedHold, effectiveBandwidth, movedHere, movedKey, planBlock } from "./plugin-rules";
import { contentProblem } from "./plugin-schema";
import { scheduleBlock } from "./schedule";
import { otherSessionProblem } from "./secret";
import { VisitorShield } from "./shield";
import type { DecisionLog, DecisionState, DecisionWriter, Maybe } from "./state";

export { ALLOW, type PluginAnswer, reject } from "./plugin-answer";
export { bandwidthQuantity, effectiveBandwidth } from "./plugin-rules";

/** The user who passed Login's checks, or why not (no object per call: this runs for every visitor). */
type Checked = UserEntry | string;

const LEVEL_TOO_LOW = "套餐等级不足，无法使用该节点";

/** 强制下线's refusal of the freed session (its heartbeat, Login and NewProxy). */
export const FREED_SESSION = "该会话已在控制台被强制下线，请使用新启动的 frpc 连接";

/** The sessions customers freed (强制下线, evictions.ts): asked only on Login, NewProxy and heartbeats. */
export interface FreedSessions {
  refused(uid: number, runId: string | undefined): boolean;
}

/**
 * Decides every frps plugin call from the decision state in memory and hands what it learns
 * (tunnel online/offline, visitor connections, decisions) to the writer.
 */
export class FrpPlugin {
  /**
   * The bandwidth (Mbps, 0 = none) each tunnel's proxy was admitted with by this process: frps
   * keeps the limit NewProxy set until the proxy reconnects, so a smaller one is applied by a
   * heartbeat refusal. Entries go with CloseProxy; one per tunnel at most.
   */
  private readonly admitted = new Map<number, number>();
  /**
   * The session (run id) each proxy was admitted to as its tunnel's holder, by node (movedKey): a
   * tunnel moved to another node (POST /user/tun/move) is still served by the old node's frps
   * until that session drops it, so that session's heartbeats there are refused until its
   * CloseProxy comes, or its next Login (a session that logs in again has lost its proxies: an
   * entry frps never closed, after a crash, refuses one heartbeat at most). The move persists
   * the hold the database knows (TunnelEntry.moved_run_id); this covers, in the process that
   * admitted the proxy, a hold whose NewProxy the write-behind had not written when it moved.
   */
  private readonly heldAt = new Map<number, string>();
  /** 访客防护's counters and the bans this process decided (per process: docs/shield.md). */
  readonly shield = new VisitorShield();

  constructor(
    private readonly cache: DecisionState,
    private readonly writer: DecisionWriter,
    private readonly log: DecisionLog,
    private readonly freed: FreedSessions = { refused: () => false },
  ) {}

  /**
   * 连接诊断: a refusal recorded for the user named in the call (the write-behind writer collapses
   * and writes it off this path), then answered. Only refusals pay for the user's parse.
   */
  private refusal(node: NodeEntry, kind: PluginDecisionKind, user: string | undefined, reason: string): PluginResponse {
    const uid = parseFrpUser(user);
    if (uid !== null) this.writer.decision(0, uid, node.node_id, kind, reason);
    return reject(reason);
  }

  /** A refusal about one tunnel, recorded on it. */
  private refuseTunnel(node: NodeEntry, t: TunnelEntry, kind: PluginDecisionKind, reason: string): PluginResponse {
    this.writer.decision(t.tun_id, t.uid, node.node_id, kind, reason);
    return reject(reason);
  }

  /**
   * Authenticates the node (secret from the URL path, compared in constant time) and answers one
   * plugin request. Unknown node or wrong secret is 403: frps then fails the operation.
   */
  handle(nodeId: number, secret: string, body: unknown): Maybe<PluginAnswer> {
    const node = Number.isSafeInteger(nodeId) && nodeId > 0 ? this.cache.node(nodeId) : null;
    return node instanceof Promise
      ? node.then((n) => this.handleOn(n, secret, body))
      : this.handleOn(node, secret, body);
  }

  private handleOn(node: NodeEntry | null, secret: string, body: unknown): Maybe<PluginAnswer> {
    if (!node || !secretEquals(secret, node.secret)) {
      return { status: 403, body: reject("invalid plugin credentials") };
    }
    const req = body as { op?: unknown; content?: unknown } | null;
    if (!req || typeof req !== "object" || typeof req.content !== "object" || req.content === null) {
      return { status: 400, body: reject("malformed plugin request") };
    }
    const op = String(req.op);
    // A wrongly typed or missing field is refused with a reason frpc shows (never a 500).
    const problem = contentProblem(op, req.content);
    if (problem) {
      this.log.debug({ node_id: node.node_id, op, reason: problem }, "frp plugin reject");
      return { status: 200, body: reject(problem) };
    }
    const decided = this.decide(node, op, req.content);
    return decided instanceof Promise ? decided.then((a) => this.answer(node, op, a)) : this.answer(node, op, decided);
  }

  private answer(node: NodeEntry, op: string, answer: PluginResponse): PluginAnswer {
    if (answer === ALLOW) return ALLOWED;
    if (answer.reject) this.log.debug({ node_id: node.node_id, op, reason: answer.reject_reason }, "frp plugin reject");
    return { status: 200, body: answer };
  }

  private decide(node: NodeEntry, op: string, content: object): Maybe<PluginResponse> {
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
  private checkUser(
    node: NodeEntry,
    user: string | undefined,
    metas: Record<string, string> | null | undefined,
  ): Maybe<Checked> {
    const down = this.nodeBlock(node);
    if (down) return down;
    const uid = parseFrpUser(user);
    if (uid === null) return "未知用户：请使用控制台生成的 frpc 配置（user 字段）";
    return chain(this.cache.user(uid), (entry) => this.checkEntry(node, entry, metas));
  }

  private checkEntry(
    node: NodeEntry,
    entry: UserEntry | null,
    metas: Record<string, string> | null | undefined,
  ): Maybe<Checked> {
    if (!entry) return "用户不存在";
    if (!entry.active) return "账号已被封禁";
    const token = metas?.token;
    if (typeof token !== "string" || !token) return "缺少访问令牌：配置中需要 metadatas.token";
    if (!secretEquals(token, entry.token)) return "访问令牌无效，请重新下载配置文件";
    const blocked = userBlock(entry, Date.now());
    if (blocked) return blocked;
    const limits = entry.limits as NonNullable<UserEntry["limits"]>;
    // Ranks are in memory after the first call.
    const nodeRank = this.cache.levelRank(node.level_id);
    const planRank = this.cache.levelRank(limits.level_id);
    if (nodeRank instanceof Promise || planRank instanceof Promise)
      return Promise.all([nodeRank, planRank]).then(([n, p]) => (n > p ? LEVEL_TOO_LOW : entry));
    return nodeRank > planRank ? LEVEL_TOO_LOW : entry;
  }

  /** The answer of `f` for a user that passed checkUser, or the refusal. */
  private withUser(
    node: NodeEntry,
    info: PluginUserInfo | undefined,
    f: (user: UserEntry) => PluginResponse,
  ): Maybe<PluginResponse> {
    return chain(this.checkUser(node, info?.user, info?.metas), (r) => (typeof r === "string" ? reject(r) : f(r)));
  }

  private login(node: NodeEntry, c: LoginContent): Maybe<PluginResponse> {
    return chain(this.checkUser(node, c.user, c.metas), (r) => {
      if (typeof r === "string") return this.refusal(node, "login_refused", c.user, r);
      // A freed session logs in again under its run id at once: it must not take the proxy back.
      if (this.freed.refused(r.uid, c.run_id)) return this.refusal(node, "login_refused", c.user, FREED_SESSION);
      if (c.run_id) this.forgetSession(node, r, c.run_id);
      this.writer.login(r.uid, node.node_id, c.version, c.client_address);
      return ALLOW;
    });
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
  private newProxy(node: NodeEntry, c: NewProxyContent): Maybe<PluginResponse> {
    return this.withUser(node, c.user, (user) => this.proxyFor(node, user, c));
  }

  private proxyFor(node: NodeEntry, user: UserEntry, c: NewProxyContent): PluginResponse {
    const t = this.tunnelOf(node, user, c.proxy_name);
    if (typeof t === "string") return reject(t);
    const refuse = (reason: string) => this.refuseTunnel(node, t, "proxy_refused", reason);
    if (this.freed.refused(user.uid, c.user.run_id)) return refuse(FREED_SESSION);
    const blocked = tunnelBlock(t) ?? scheduleBlock(t, Date.now()) ?? planBlock(user, t);
    if (blocked) return refuse(blocked);
    const remotePort = proxyPort(user, t, c);
    if (typeof remotePort === "string") return refuse(remotePort);
    // One session serves all of a tunnel's proxies (severalProxies; review 6 F2).
    const taken = otherSessionProblem(t, c.user.run_id);
    if (taken) return refuse(taken);
    const mbps = effectiveBandwidth(t.bandwidth, user.limits?.bandwidth ?? 0, node.bandwidth);
    // Allowing is not holding: frps may still refuse ("already exists" while another session of
    // the same config holds the proxy). A proxy another session holds is not handed over on this
    // request's word; the holder's CloseProxy or the poller (the dashboard's client id) says when.
    // The holder's own NewProxy (frpc reconnected under the same run id, or reloaded the proxy)
    // is written too: its earlier proxy's CloseProxy, sent by frps from a goroutine, may still
    // come, and must then leave the hold (decision-cache.ts proxyOpened).
    if (!t.run_id || t.run_id === c.user.run_id) {
      this.admitted.set(t.tun_id, mbps);
      this.heldAt.set(movedKey(node.node_id, t.tun_id), c.user.run_id);
      this.cache.proxyOpened(t, c.user.run_id);
      this.writer.online(t.tun_id, user.uid, c.user.run_id);
      this.writer.decision(t.tun_id, user.uid, node.node_id, "proxy_ok", `隧道 ${t.tun_name} 已连接`);
    } else {
      // frps will refuse it ("proxy already exists"): the doctor says who holds it (the writer
      // turns the holder's run id into "被另一会话占用：…" off this path).
      this.writer.decision(t.tun_id, user.uid, node.node_id, "proxy_held", t.run_id);
    }
    return modify(withLimits(c, remotePort, mbps));
  }

  /**
   * Re-checks the user (ban, token, plan, quota) and refuses the heartbeat while frps still holds
   * one of the user's tunnels on this node that was locked, deleted or turned off: frpc then drops
   * the session and logs in again, and the blocked tunnel cannot open any more.
   */
  private ping(node: NodeEntry, c: { user: PluginUserInfo }): Maybe<PluginResponse> {
    return chain(this.checkUser(node, c.user?.user, c.user?.metas), (user) => {
      if (typeof user === "string") return this.refusal(node, "ping_refused", c.user.user, user);
      if (this.freed.refused(user.uid, c.user.run_id))
        return this.refusal(node, "ping_refused", c.user.user, FREED_SESSION);
      // The poller's kick: open connections may hold more than the quota left; frps counts
      // them when the session drops, and the customer reconnects if quota remains.
      if (user.kicks.has(node.node_id))
        return this.refusal(node, "ping_refused", c.user.user, "剩余流量不足以结算当前连接，连接将断开以结算流量");
      const held = this.heldBlock(node, user, c.user.run_id);
      if (held) this.writer.decision(0, user.uid, node.node_id, "ping_refused", held.reject_reason ?? "");
      return held ?? ALLOW;
    });
  }

  /** NewWorkConn: Login's checks, and no blocked tunnel held on this node. */
  private userOnly(node: NodeEntry, c: { user: PluginUserInfo }): Maybe<PluginResponse> {
    return this.withUser(node, c.user, (user) => this.heldBlock(node, user, c.user.run_id) ?? ALLOW);
  }

  /**
   * The refusal for every session of the user on this node while frps still holds a blocked
   * tunnel there (a run id is recorded until CloseProxy or the poller says the proxy is gone).
   * Which session holds it is not assumed: two frpc may run one config, and the one whose
   * NewProxy was allowed last is not necessarily the one frps registered.
   */
  private heldBlock(node: NodeEntry, user: UserEntry, runId: string): PluginResponse | null {
    const now = Date.now();
    for (const t of user.tunnels.values()) {
      if (t.node_id !== node.node_id) {
        if (
          movedHere(t, node, runId) ||
          (this.heldAt.size && this.heldAt.get(movedKey(node.node_id, t.tun_id)) === runId)
        )
          return reject(`隧道 ${t.tun_name} 已迁移到其他节点，请下载新的配置文件，连接已断开`);
        continue;
      }
      if (t.run_id === null) continue;
      // A domain unbound by an operator or lapsed must stop the proxy frps already holds too,
      // else the name stays routed to this tunnel (and refused to its next owner) until frpc reconnects.
      const blocked = this.tunnelHeldBlock(user, t, now) ?? this.bandwidthBlock(node, user, t);
      if (blocked) return reject(`${blocked}，连接已断开`);
    }
    return null;
  }

  /**
   * A session logged in again on the node: frps holds none of its earlier proxies any more. The
   * persisted moved hold is dropped from this process's entry only; the database's goes with the
   * next read of the node's dashboard (poll-status.ts), before which a reload may refuse one more
   * heartbeat of the session (more, never less).
   */
  private forgetSession(node: NodeEntry, user: UserEntry, runId: string): void {
    if (this.heldAt.size)
      for (const [key, r] of this.heldAt)
        if (r === runId && Math.floor(key / 2 ** 32) === node.node_id) this.heldAt.delete(key);
    for (const t of user.tunnels.values()) if (movedHere(t, node, runId)) dropMovedHold(t);
  }

  /** Why the node serves nothing now, or null (the node agent closes every open connection then). */
  nodeBlock(node: NodeEntry): string | null {
    return node.status === NodeStatus.OffShelf ? "节点已下架" : null;
  }

  /**
   * Why a tunnel of the user on the node may carry nothing now (locked, deleted, turned off,
   * beyond the plan, its domain no longer held), or null: the heartbeat refuses a session holding
   * it, and the node agent closes its open connections.
   */
  tunnelHeldBlock(user: UserEntry, t: TunnelEntry, now = Date.now()): string | null {
    return (
      tunnelBlock(t) ??
      scheduleBlock(t, now) ??
      planBlock(user, t) ??
      (t.custom_domains.length ? domainBlock(user, t, now) : null)
    );
  }

  /** A proxy running with a larger bandwidth than tunnel, plan and node now allow. */
  private bandwidthBlock(node: NodeEntry, user: UserEntry, t: TunnelEntry): string | null {
    const was = this.admitted.get(t.tun_id);
    if (was === undefined) return null;
    const now = effectiveBandwidth(t.bandwidth, user.limits?.bandwidth ?? 0, node.bandwidth);
    return now > 0 && (was === 0 || now < was) ? `隧道 ${t.tun_name} 的带宽已调整为 ${now} Mbps，需要重新连接` : null;
  }

  /** Refuses visitors of blocked tunnels at once and records each accepted connection. */
  private newUserConn(node: NodeEntry, c: NewUserConnContent): Maybe<PluginResponse> {
    return this.withUser(node, c.user, (user) => this.visitorOf(node, user, c));
  }

  private visitorOf(node: NodeEntry, user: UserEntry, c: NewUserConnContent): PluginResponse {
    const t = this.tunnelOf(node, user, c.proxy_name);
    if (typeof t === "string") return reject(t);
    const blocked = tunnelBlock(t) ?? scheduleBlock(t, Date.now());
    if (blocked) return this.refuseTunnel(node, t, "visitor_refused", blocked);
    const held = this.heldBlock(node, user, c.user.run_id);
    if (held) return this.refuseTunnel(node, t, "visitor_refused", held.reject_reason ?? "");
    if (t.shield) {
      const shielded = this.shield.check(t, String(c.remote_addr ?? ""), Date.now());
      if (shielded) {
        if (shielded.ban) this.writer.ban?.(shielded.ban);
        return this.refuseTunnel(node, t, "visitor_refused", shielded.reason);
      }
    }
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

  /**
   * A proxy of the session closed. The holder's close releases the hold, unless it is the close
   * of an earlier proxy of that session still to come (frps sends CloseProxy from a goroutine:
   * after a reconnect under the same run id it can follow the new proxy's NewProxy); another
   * session's close leaves it. Written either way, for the database to apply to the hold it has.
   * frps ignores this answer, so it is always "allow".
   */
  private closeProxy(node: NodeEntry, c: CloseProxyContent): Maybe<PluginResponse> {
    const uid = parseFrpUser(c.user?.user);
    const parsed = parseFrpProxyName(c.proxy_name);
    if (uid === null || !parsed || parsed.uid !== uid) return ALLOW;
    return chain(this.cache.user(uid), (user) => {
      const t = user?.tunnels.get(parsed.tun_id);
      if (!t) return ALLOW;
      // A moved tunnel's old proxy closed: that node no longer serves it (its hold moved with it).
      this.heldAt.delete(movedKey(node.node_id, t.tun_id));
      if (movedHere(t, node, c.user.run_id)) dropMovedHold(t);
      if (t.node_id !== node.node_id) return ALLOW;
      if (this.cache.proxyClosed(t, c.user.run_id) === "released") this.admitted.delete(t.tun_id);
      this.writer.offline(t.tun_id, uid, c.user.run_id, tunnelBlock(t) !== null);
      return ALLOW;
    });
  }
}
