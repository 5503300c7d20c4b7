/**
 * The agent: frps's httpPlugins endpoint on 127.0.0.1, answered by the shared FrpPlugin over the
 * streamed copy; what it learns goes to the durable journal, delivered to the console; the frps
 * dashboard is read on the node and its counters journaled; blocked tunnels' open connections
 * are closed. See docs/agent.md.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseFrpUser } from "@burrow/contract";
import {
  type AgentEventBody,
  type ConnRecord,
  type DecisionWriter,
  FrpPlugin,
  fetchProxies,
  fetchServerInfo,
  MAX_DECISION_COUNT,
  type ProxyStat,
  reject,
  type StreamLine,
  userBlock,
  visitorIp,
} from "@burrow/frp-decision";
import type { AgentConfig } from "./config";
import { DecisionCopy } from "./copy";
import { Enforcer, type PortKiller, ssKill } from "./enforce";
import { Grace } from "./grace";
import { Journal } from "./journal";
import { ConsoleUnreachable, Link } from "./link";

/** frps's plugin bodies are small; anything this big is not frps. */
const MAX_BODY = 256 * 1024;
const PROXY_TYPES = ["tcp", "udp", "http", "https"] as const;
export const UNREACHABLE = "控制台暂不可达，请稍后重试";
export const GRACE_REFUSED = "控制台长时间不可达，节点暂停服务";
const NOT_READY = "节点代理尚未从控制台取得数据，请稍后重试";
/** What the grace policy "refuse" refuses: new sessions, proxies and visitors. */
const REFUSED_IN_GRACE = new Set(["Login", "NewProxy", "NewUserConn"]);

export interface AgentDeps {
  now?: () => number;
  kill?: PortKiller;
  log?: (msg: string, extra?: object) => void;
}

export class Agent {
  readonly copy: DecisionCopy;
  readonly journal: Journal;
  readonly grace: Grace;
  readonly link: Link;
  readonly enforcer: Enforcer;
  private readonly plugin: FrpPlugin;
  private readonly server: http.Server;
  private readonly lookups = new Map<string, Promise<void>>();
  /** this minute's 连接诊断 decisions, collapsed, journaled once a minute */
  private decisions = new Map<string, (AgentEventBody & { kind: "decision" })["data"]>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly now: () => number;
  private readonly log: (msg: string, extra?: object) => void;

  constructor(
    private readonly cfg: AgentConfig,
    deps: AgentDeps = {},
  ) {
    this.now = deps.now ?? Date.now;
    this.log =
      deps.log ??
      ((msg, extra) => process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), msg, ...extra })}\n`));
    this.journal = new Journal(
      cfg.stateDir,
      cfg.journalMaxBytes,
      this.now,
      (n) => this.log("journal over its bound: dropped older counter reads and visitor records", { dropped: n }),
      (err) => this.log("journal write failed (kept in memory, retried with the next write)", { error: err.message }),
    );
    this.copy = new DecisionCopy(cfg.nodeId, cfg.nodeSecret, path.join(cfg.stateDir, "state.json"), this.now);
    const loaded = this.copy.load();
    this.log(loaded ? "loaded the decision copy from state.json" : "no saved decision copy: waiting for the console");
    this.grace = new Grace(
      cfg.graceMs,
      cfg.gracePolicy,
      this.now,
      (e) => {
        this.log(`grace ${e.data.state}`, { policy: e.data.policy, grace_minutes: cfg.graceMs / 60_000 });
        this.journal.append(e, true);
      },
      this.copy.contactAt,
    );
    this.enforcer = new Enforcer(deps.kill ?? ssKill, (msg, port, reason) => this.log(msg, { port, reason }));
    this.plugin = new FrpPlugin(this.copy, this.writer(), { debug: () => {} });
    this.link = new Link(
      {
        consoleUrl: cfg.consoleUrl,
        nodeId: cfg.nodeId,
        secret: cfg.nodeSecret,
        lookupTimeoutMs: cfg.lookupTimeoutMs,
      },
      this.journal,
      {
        line: (line) => this.onLine(line),
        up: () => {
          this.log("connected to the console");
          this.grace.up();
        },
        down: (last, why) => {
          this.log("lost the console", { why });
          this.grace.down(last);
        },
        acked: (seq) => this.copy.acked(seq),
        log: (msg) => this.log(msg),
      },
    );
    this.server = http.createServer((req, res) => this.serve(req, res));
  }

  /** What the plugin hands on, journaled: holds and releases durably before frps gets its answer. */
  private writer(): DecisionWriter {
    // Holds and releases are durable and go at once; the rest is gathered (Link.deliver).
    const append = (e: AgentEventBody, durable: boolean) => {
      const seq = this.journal.append(e, durable);
      this.link.deliver(durable);
      return seq;
    };
    return {
      online: (tunId, uid, runId) => {
        const t = this.copy.user(uid)?.tunnels.get(tunId);
        const seq = append(
          { kind: "hold", data: { tun_id: tunId, uid, run_id: runId, stale_closes: t?.stale_closes ?? 0 } },
          true,
        );
        if (t) this.copy.holdJournaled(t, seq);
      },
      offline: (tunId, uid, runId, announce) => {
        const seq = append({ kind: "release", data: { tun_id: tunId, uid, run_id: runId, announce } }, true);
        const t = this.copy.user(uid)?.tunnels.get(tunId);
        if (t) this.copy.holdJournaled(t, seq);
      },
      decision: (tunId, uid, _nodeId, kind, reason) => {
        // Collapsed per minute like the console's writer: a refused visitor flood is one event.
        const now = this.now();
        const key = `${tunId} ${uid} ${kind} ${reason}`;
        const g = this.decisions.get(key);
        if (g) {
          g.count++;
          g.last = now;
          // The console takes at most MAX_DECISION_COUNT per event: a full group goes now, the next starts afresh.
          if (g.count >= MAX_DECISION_COUNT) {
            this.decisions.delete(key);
            append({ kind: "decision", data: g }, false);
          }
        } else this.decisions.set(key, { tun_id: tunId, uid, kind, reason, count: 1, first: now, last: now });
      },
      ban: (b) =>
        append(
          { kind: "ban", data: { tun_id: b.tun_id, uid: b.uid, ip: b.ip, reason: b.reason, at: b.at, until: b.until } },
          false,
        ),
      login: (uid, _nodeId, version, address) =>
        append({ kind: "login", data: { uid, version: version ?? null, address: address ?? null } }, false),
      conn: (c: ConnRecord) =>
        append(
          {
            kind: "conn",
            data: {
              tun_id: c.tun_id,
              uid: c.uid,
              proxy_type: c.proxy_type,
              remote_addr: c.remote_addr,
              ip: visitorIp(c.remote_addr),
              at: c.at,
            },
          },
          false,
        ),
    };
  }

  /** Journals the decisions collapsed since the last call. */
  journalDecisions(): void {
    if (this.decisions.size === 0) return;
    const groups = this.decisions;
    this.decisions = new Map();
    for (const data of groups.values()) this.journal.append({ kind: "decision", data }, false);
    this.link.deliver(false);
  }

  private onLine(line: StreamLine): void {
    this.copy.apply(line);
    if (line.type !== "ping") void this.enforce();
  }

  /** Closes the open connections of every tunnel on this node that may carry nothing now. */
  async enforce(): Promise<void> {
    const node = this.copy.node(this.cfg.nodeId);
    const blocked = new Map<number, { reason: string; held: boolean }>();
    if (!node) return;
    const now = this.now();
    const nodeReason = this.plugin.nodeBlock(node);
    for (const user of this.copy.allUsers()) {
      const ub = nodeReason ?? userBlock(user, now);
      for (const t of user.tunnels.values()) {
        if (t.node_id !== node.node_id || !t.remote_port || t.protocol === "udp") continue;
        const reason = ub ?? this.plugin.tunnelHeldBlock(user, t, now);
        // Every port of a port range (one proxy each).
        if (reason)
          for (let p = t.remote_port; p <= (t.remote_port_end ?? t.remote_port); p++)
            blocked.set(p, { reason, held: t.run_id !== null });
      }
    }
    await Promise.all(this.enforcer.apply(blocked));
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.cfg.pluginPort, "127.0.0.1", () => resolve());
    });
    this.link.start();
    const tick = setInterval(() => this.grace.tick(), 1000);
    const minute = setInterval(() => this.journalDecisions(), 60_000);
    tick.unref();
    minute.unref();
    this.timers.push(tick, minute);
    if (this.cfg.dashboard) {
      const read = setInterval(() => void this.readDashboard(), this.cfg.dashboardIntervalMs);
      read.unref();
      this.timers.push(read);
    }
    const port = (this.server.address() as AddressInfo).port;
    this.log("listening for frps on 127.0.0.1", { port });
    return port;
  }

  /** One read of frps's dashboard on this machine, journaled as a "counters" event. */
  async readDashboard(): Promise<void> {
    const d = this.cfg.dashboard;
    if (!d) return;
    const target = { api_addr: d.url, api_user: d.user, api_password: d.password };
    const limits = { timeoutMs: 10_000 };
    try {
      const [info, ...lists] = await Promise.all([
        fetchServerInfo(target, limits),
        ...PROXY_TYPES.map((t) => fetchProxies(target, t, limits)),
      ]);
      const proxies = (lists as ProxyStat[][]).flat();
      this.journal.append({ kind: "counters", data: { proxies, server_info: info as never } }, false);
      this.link.deliver();
    } catch (err) {
      this.log("could not read the frps dashboard", { error: (err as Error).message });
    }
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method === "GET" && req.url === "/healthz") {
      send(200, {
        node_id: this.cfg.nodeId,
        ready: this.copy.ready,
        link: this.link.connected ? "up" : "down",
        grace: this.grace.state,
        journal: {
          stream: this.journal.stream,
          pending: this.journal.size,
          written: this.journal.writtenSeq,
          acked: this.journal.ackedSeq,
          dropped: this.journal.dropped,
        },
      });
      return;
    }
    if (req.method !== "POST" || req.url?.split("?")[0] !== "/frp/plugin") {
      send(404, reject("not found"));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        send(413, reject("plugin request too large"));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (size > MAX_BODY) return;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        send(400, reject("malformed plugin request"));
        return;
      }
      this.decide(body).then(
        (a) => send(a.status, a.body),
        (err: Error) => {
          this.log("plugin error", { error: err.message });
          send(500, reject("internal error"));
        },
      );
    });
  }

  /** Answers one plugin request: the grace policy, a lookup for a customer the copy has not seen, then the shared plugin. */
  async decide(body: unknown): Promise<{ status: number; body: ReturnType<typeof reject> }> {
    if (!this.copy.ready) return { status: 200, body: reject(NOT_READY) };
    const req = body as { op?: unknown; content?: { user?: unknown } } | null;
    const op = typeof req?.op === "string" ? req.op : "";
    if (REFUSED_IN_GRACE.has(op) && this.grace.refusing()) return { status: 200, body: reject(GRACE_REFUSED) };
    const u = req?.content?.user;
    const uid = parseFrpUser(typeof u === "string" ? u : (u as { user?: string } | undefined)?.user);
    const token = presentedToken(req?.content);
    // Without a token there is nothing to look up: the plugin refuses it ("缺少访问令牌").
    if (uid !== null && token && !this.copy.knows(uid, token)) {
      try {
        await this.lookup(uid, token);
      } catch (err) {
        if (err instanceof ConsoleUnreachable) return { status: 200, body: reject(UNREACHABLE) };
        throw err;
      }
    }
    const durable = this.journal.durableSeq;
    const answer = await this.plugin.handle(this.cfg.nodeId, this.cfg.nodeSecret, body);
    // A hold or release this call made is on disk before frps hears the answer (one fsync shared
    // with whatever else was appended meanwhile; other calls go on being answered while it runs).
    if (this.journal.durableSeq > durable) await this.journal.whenDurable(this.journal.durableSeq);
    return answer;
  }

  /**
   * One lookup per customer and presented token at a time, however many calls wait for it (keyed
   * by both: a caller with a wrong token never shares, or spoils, the right one's answer).
   */
  private lookup(uid: number, token: string): Promise<void> {
    const key = `${uid}:${token}`;
    let p = this.lookups.get(key);
    if (!p) {
      p = this.link
        .lookup(uid, token)
        .then((user) => this.copy.looked(uid, token, user))
        .finally(() => this.lookups.delete(key));
      this.lookups.set(key, p);
    }
    return p;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.journalDecisions();
    await this.link.stop();
    await new Promise((r) => this.server.close(r));
    this.server.closeAllConnections();
    this.copy.stop();
    this.journal.close();
  }
}

/** The frp access token a plugin call presents: Login carries metas itself, the other ops in content.user. */
function presentedToken(content: unknown): string | null {
  const c = content as { metas?: unknown; user?: unknown } | null | undefined;
  const metas = (typeof c?.user === "object" && c.user !== null ? (c.user as { metas?: unknown }).metas : c?.metas) as
    | { token?: unknown }
    | null
    | undefined;
  const token = metas?.token;
  return typeof token === "string" && token.length > 0 && token.length <= 128 ? token : null;
}
