import type { ServerResponse } from "node:http";
import {
  type NodeWire,
  nodeToWire,
  onNode,
  PING_MS,
  type StreamLine,
  type UserEntry,
  userToWire,
} from "@burrow/frp-decision";
import type { AppContext } from "../../context";
import { noteAgentContact, usersOnNode } from "../frp/agent-feed";
import { frpRuntime } from "../frp/frp.routes";
import { mapLimit } from "../frp/poll-common";

/** The bounds of the node agents' streams (agent-protocol.md); tests lower them. */
export interface HubLimits {
  /** open streams per node in this process: a new one closes the oldest */
  maxStreams: number;
  /** unsent bytes a stream may hold beyond its snapshot before it is dropped (a slow reader) */
  maxBuffer: number;
  pingMs: number;
  /** changes are gathered this long and sent together (the protocol allows 200 ms) */
  debounceMs: number;
  /** the agent's contact is written at most this often per node */
  contactEveryMs: number;
}

export const DEFAULT_LIMITS: HubLimits = {
  maxStreams: 4,
  maxBuffer: 4 * 1024 * 1024,
  pingMs: PING_MS,
  debounceMs: 100,
  contactEveryMs: 10_000,
};

/** User entries loaded at once while building a snapshot or sending changes. */
const LOAD_CONCURRENCY = 16;

interface AgentStream {
  nodeId: number;
  res: ServerResponse;
  /** customers the agent holds in its copy: their changes are sent */
  covered: Set<number>;
  /** customers with a kick on this node the agent was told of */
  kicked: Set<number>;
  /** the node line last sent */
  node: string;
  /** snapshot bytes: the buffer bound counts beyond them */
  base: number;
  /** changes that came while the snapshot was being built (sent once it is) */
  pending: Set<number> | null;
  closed: boolean;
}

/** Whether a customer's entry concerns the node: a tunnel on it (not deleted, or still held), or moved away from it while held. */
export const touches = (u: UserEntry, nodeId: number): boolean => {
  for (const t of u.tunnels.values()) if (onNode(t, nodeId)) return true;
  return false;
};

/**
 * The node agents' streams in this process (GET /api/agent/stream): a snapshot of everything a
 * node decides with, then the changes, driven by the change events every process hears (Redis),
 * each entry built by the same loaders the console's own plugin decides with (FrpDecisionCache).
 */
export class AgentHub {
  readonly limits: HubLimits = { ...DEFAULT_LIMITS };
  private readonly byNode = new Map<number, Set<AgentStream>>();
  /** customers changed since the last send; true: a tunnel changed (the customer may be new to a node) */
  private dirty = new Map<number, boolean>();
  private nodesDirty = false;
  private timer: NodeJS.Timeout | null = null;
  private pinger: NodeJS.Timeout | null = null;
  private readonly contactAt = new Map<number, number>();

  constructor(private readonly ctx: AppContext) {
    const user = ({ uid }: { uid: number }) => this.mark(uid, false);
    ctx.events.on("user.changed", user);
    ctx.events.on("subscription.changed", user);
    ctx.events.on("domain.changed", user);
    ctx.events.on("tunnel.changed", ({ uid }) => this.mark(uid, true));
    ctx.events.on("node.changed", () => {
      this.nodesDirty = true;
      this.schedule();
    });
    // Changes were missed while the change feed was down: every agent starts over (fresh snapshot).
    ctx.events.onResync(() => this.closeAll());
  }

  /** Open streams per node (diagnostics, tests). */
  count(nodeId: number): number {
    return this.byNode.get(nodeId)?.size ?? 0;
  }

  /** Opens a node's stream on `res`: the snapshot first, then the changes until either side closes. */
  async open(nodeId: number, res: ServerResponse): Promise<void> {
    const s: AgentStream = {
      nodeId,
      res,
      covered: new Set(),
      kicked: new Set(),
      node: "",
      base: 0,
      pending: new Set(),
      closed: false,
    };
    const set = this.byNode.get(nodeId) ?? new Set<AgentStream>();
    this.byNode.set(nodeId, set);
    set.add(s);
    // The oldest first: a dead link the console has not noticed yet must not lock the agent out.
    for (const old of set) if (set.size > this.limits.maxStreams && old !== s) this.close(old);
    res.on("close", () => this.close(s));
    this.startPings();
    void this.contact(nodeId, true);
    try {
      const cache = frpRuntime(this.ctx).cache;
      const node = await cache.node(nodeId);
      if (!node) return this.close(s);
      const wire = nodeToWire(node, await cache.levelRank(node.level_id));
      const uids = await usersOnNode(this.ctx.db, nodeId);
      const entries = await mapLimit(uids, LOAD_CONCURRENCY, async (uid) => cache.user(uid));
      if (s.closed) return;
      const users = entries.filter((u): u is UserEntry => !!u);
      for (const u of users) {
        s.covered.add(u.uid);
        if (u.kicks.has(nodeId)) s.kicked.add(u.uid);
      }
      s.node = JSON.stringify(wire);
      const line = `${JSON.stringify({ type: "snapshot", node: wire, users: users.map(userToWire), at: Date.now() } satisfies StreamLine)}\n`;
      s.base = Buffer.byteLength(line);
      res.write(line);
      // What changed while the snapshot was built is sent again, loaded afresh.
      const pending = s.pending ?? new Set();
      s.pending = null;
      for (const uid of pending) this.mark(uid, true);
    } catch (err) {
      this.ctx.log.error({ err, node_id: nodeId }, "agent stream: snapshot failed");
      this.close(s);
    }
  }

  /** A customer the agent looked up: its changes reach the node's open streams from now on. */
  cover(nodeId: number, uid: number): void {
    for (const s of this.byNode.get(nodeId) ?? []) s.covered.add(uid);
  }

  /** Whether a node's agent looked the customer up (or was sent them) on a stream open in this process. */
  covers(nodeId: number, uid: number): boolean {
    for (const s of this.byNode.get(nodeId) ?? []) if (s.covered.has(uid)) return true;
    return false;
  }

  /** Records the agent's contact (at most once per contactEveryMs per node, unless `now`); never throws. */
  async contact(nodeId: number, now = false): Promise<void> {
    const t = Date.now();
    if (!now && t - (this.contactAt.get(nodeId) ?? 0) < this.limits.contactEveryMs) return;
    this.contactAt.set(nodeId, t);
    await noteAgentContact(this.ctx, nodeId, new Date(t).toISOString()).catch((err) =>
      this.ctx.log.warn({ err, node_id: nodeId }, "agent: contact not recorded"),
    );
  }

  private mark(uid: number, tunnel: boolean): void {
    if (!this.byNode.size) return;
    this.dirty.set(uid, (this.dirty.get(uid) ?? false) || tunnel);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.limits.debounceMs);
    this.timer.unref();
  }

  /** Sends what changed to the streams concerned; a stream that cannot be told is closed (it starts over). */
  private async flush(): Promise<void> {
    this.timer = null;
    const dirty = this.dirty;
    this.dirty = new Map();
    const nodes = this.nodesDirty;
    this.nodesDirty = false;
    const cache = frpRuntime(this.ctx).cache;
    const streams = [...this.byNode.values()].flatMap((set) => [...set]);
    await mapLimit([...dirty], LOAD_CONCURRENCY, async ([uid, tunnel]) => {
      const concerned = streams.filter((s) => s.pending || tunnel || s.covered.has(uid));
      if (!concerned.length) return;
      for (const s of concerned) s.pending?.add(uid);
      const ready = concerned.filter((s) => !s.pending);
      if (!ready.length) return;
      try {
        const u = await cache.user(uid);
        for (const s of ready) this.sendUser(s, uid, u);
      } catch (err) {
        this.ctx.log.error({ err, uid }, "agent stream: user not loaded, streams start over");
        for (const s of ready) this.close(s);
      }
    });
    if (nodes) await this.sendNodes();
  }

  private sendUser(s: AgentStream, uid: number, u: UserEntry | null): void {
    if (s.closed) return;
    if (u && touches(u, s.nodeId)) s.covered.add(uid);
    else if (!s.covered.has(uid)) return;
    const keep = !!u && touches(u, s.nodeId);
    if (!keep) s.covered.delete(uid);
    this.send(s, { type: "user", uid, user: keep && u ? userToWire(u) : null });
    const kicked = keep && !!u?.kicks.has(s.nodeId);
    if (kicked && !s.kicked.has(uid)) this.send(s, { type: "kick", uid });
    if (kicked) s.kicked.add(uid);
    else s.kicked.delete(uid);
  }

  private async sendNodes(): Promise<void> {
    const cache = frpRuntime(this.ctx).cache;
    for (const [nodeId, set] of this.byNode) {
      try {
        const node = await cache.node(nodeId);
        if (!node) {
          // Deleted: its agent's credential is refused from now on.
          for (const s of set) this.close(s);
          continue;
        }
        const wire: NodeWire = nodeToWire(node, await cache.levelRank(node.level_id));
        const text = JSON.stringify(wire);
        for (const s of set)
          if (!s.pending && s.node !== text) {
            s.node = text;
            this.send(s, { type: "node", node: wire });
          }
      } catch (err) {
        this.ctx.log.error({ err, node_id: nodeId }, "agent stream: node not loaded, streams start over");
        for (const s of set) this.close(s);
      }
    }
  }

  /** Writes a line, or drops a stream whose agent does not read fast enough (no unbounded buffer). */
  private send(s: AgentStream, line: StreamLine): void {
    if (s.closed) return;
    if (s.res.writableLength > s.base + this.limits.maxBuffer) {
      this.ctx.log.warn({ node_id: s.nodeId, buffered: s.res.writableLength }, "agent stream: slow reader dropped");
      // Destroyed, not ended: ending would wait for the very reader that does not read.
      this.close(s);
      s.res.destroy();
      return;
    }
    s.res.write(`${JSON.stringify(line)}\n`);
  }

  private startPings(): void {
    if (this.pinger) return;
    this.pinger = setInterval(() => {
      const at = Date.now();
      for (const [nodeId, set] of this.byNode) {
        for (const s of set) if (!s.pending) this.send(s, { type: "ping", at });
        // An open stream is the agent in touch: the node page's last contact follows it.
        if (set.size) void this.contact(nodeId);
      }
    }, this.limits.pingMs);
    this.pinger.unref();
  }

  private close(s: AgentStream): void {
    if (s.closed) return;
    s.closed = true;
    const set = this.byNode.get(s.nodeId);
    set?.delete(s);
    if (set && !set.size) this.byNode.delete(s.nodeId);
    if (!this.byNode.size && this.pinger) {
      clearInterval(this.pinger);
      this.pinger = null;
    }
    s.res.end();
  }

  /** Ends every stream (a resync, the server closing). */
  closeAll(): void {
    for (const set of [...this.byNode.values()]) for (const s of [...set]) this.close(s);
  }
}
