/**
 * The node's copy of the console's decision state: this node, and every customer with something
 * on it (from the stream's snapshot and updates, plus customers looked up on demand). The plugin
 * decides over it synchronously. Persisted to <state dir>/state.json (write, fsync, rename) so a
 * restarted agent answers frps while the console is still unreachable.
 */
import fs from "node:fs";
import path from "node:path";
import {
  type CloseOutcome,
  closeHold,
  type DecisionState,
  type NodeEntry,
  type NodeWire,
  nodeFromWire,
  openHold,
  type StreamLine,
  type TunnelEntry,
  type UserEntry,
  type UserWire,
  userFromWire,
  userToWire,
} from "@burrow/frp-decision";

/** What state.json holds. */
interface Saved {
  version: 1;
  node: NodeWire | null;
  users: UserWire[];
  /** when the console last spoke to this agent (epoch ms): the grace counts from it across restarts */
  contact_at: number | null;
}

/** A hold change this agent journaled that the console has not acknowledged yet. */
interface PendingHold {
  run_id: string | null;
  stale_closes: number;
  seq: number;
}

/** A kick lasts this long on the node (the console sends a fresh user entry when it ends sooner). */
const KICK_MS = 2 * 60_000;
/** A customer the console said does not exist is not asked about again for this long. */
const ABSENT_MS = 60_000;
/** At most this many such answers are remembered (uids and tokens in Logins are the client's to choose). */
const MAX_ABSENT = 10_000;

export function writeFileAtomic(file: string, data: string): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, "w", 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  // the rename itself is durable once the directory is synced
  const dir = fs.openSync(path.dirname(file), "r");
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}

export class DecisionCopy implements DecisionState {
  private nodeWire: NodeWire | null = null;
  private nodeEntry: NodeEntry | null = null;
  private readonly users = new Map<number, UserEntry>();
  /** "uid:token" → until (epoch ms): the console knows no customer with that id and token */
  private readonly absent = new Map<string, number>();
  /** level id → rank, from the node and the customers' plans */
  private readonly levels = new Map<number, number>();
  private readonly pending = new Map<number, PendingHold>();
  private readonly kickTimers = new Map<number, NodeJS.Timeout>();
  private saveTimer: NodeJS.Timeout | null = null;
  contactAt: number | null = null;
  private savedContact = 0;

  constructor(
    private readonly nodeId: number,
    private readonly secret: string,
    private readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Loads state.json when there is one (a copy from before a restart). */
  load(): boolean {
    let saved: Saved;
    try {
      saved = JSON.parse(fs.readFileSync(this.file, "utf8")) as Saved;
    } catch {
      return false;
    }
    if (saved.version !== 1 || (saved.node && saved.node.node_id !== this.nodeId)) return false;
    if (saved.node) this.setNode(saved.node);
    for (const u of saved.users) this.putUser(u);
    this.contactAt = saved.contact_at;
    return true;
  }

  node(nodeId: number): NodeEntry | null {
    return nodeId === this.nodeId ? this.nodeEntry : null;
  }

  get ready(): boolean {
    return this.nodeEntry !== null;
  }

  user(uid: number): UserEntry | null {
    return this.users.get(uid) ?? null;
  }

  /** Known to the copy: present, or known absent lately for this token (no lookup needed). */
  knows(uid: number, token: string): boolean {
    if (this.users.has(uid)) return true;
    const until = this.absent.get(`${uid}:${token}`);
    return until !== undefined && until > this.now();
  }

  levelRank(levelId: number): number {
    return this.levels.get(levelId) ?? 0;
  }

  proxyOpened(t: TunnelEntry, runId: string): void {
    openHold(t, runId);
  }

  proxyClosed(t: TunnelEntry, runId: string): CloseOutcome {
    return closeHold(t, runId);
  }

  /** The hold as journaled at `seq`: it stands over the console's entries until the console acknowledges it. */
  holdJournaled(t: TunnelEntry, seq: number): void {
    this.pending.set(t.tun_id, { run_id: t.run_id, stale_closes: t.stale_closes, seq });
  }

  /** The console applied every event up to `seq`: its entries include those holds now. */
  acked(seq: number): void {
    for (const [tunId, p] of this.pending) if (p.seq <= seq) this.pending.delete(tunId);
  }

  /** Every customer in the copy (enforcement walks them). */
  allUsers(): IterableIterator<UserEntry> {
    return this.users.values();
  }

  /** Applies one stream line; returns the uids whose entries changed (all for a snapshot or a node change). */
  apply(line: StreamLine): number[] | "all" {
    this.contactAt = this.now();
    switch (line.type) {
      case "snapshot": {
        if (line.node.node_id !== this.nodeId)
          throw new Error(`snapshot for node ${line.node.node_id}, not ${this.nodeId}`);
        this.users.clear();
        this.absent.clear();
        this.levels.clear();
        this.setNode(line.node);
        for (const u of line.users) this.putUser(u);
        this.scheduleSave();
        return "all";
      }
      case "user":
        // null: forget (gone, or nothing on this node any more); a later call looks the customer up again
        if (line.user) this.putUser(line.user);
        else this.users.delete(line.uid);
        this.scheduleSave();
        return [line.uid];
      case "node":
        this.setNode(line.node);
        this.scheduleSave();
        return "all";
      case "kick":
        this.kick(line.uid);
        return [line.uid];
      default:
        // pings refresh the last contact on disk now and then: the grace after a restart counts from it
        if (this.contactAt - this.savedContact > 60_000) this.scheduleSave();
        return [];
    }
  }

  /** A lookup's answer for a customer the copy had not seen. */
  looked(uid: number, token: string, user: UserWire | null): void {
    if (user) this.putUser(user);
    else {
      // the oldest answer goes first past the bound (a Map iterates in insertion order)
      if (this.absent.size >= MAX_ABSENT) this.absent.delete(this.absent.keys().next().value as string);
      this.absent.set(`${uid}:${token}`, this.now() + ABSENT_MS);
    }
    this.scheduleSave();
  }

  private setNode(w: NodeWire): void {
    this.nodeWire = w;
    this.nodeEntry = nodeFromWire(w, this.secret);
    this.levels.set(w.level_id, w.level_rank);
  }

  private putUser(w: UserWire): void {
    const u = userFromWire(w);
    // A hold this agent journaled and the console has not applied yet is newer than the console's entry.
    for (const t of u.tunnels.values()) {
      const p = this.pending.get(t.tun_id);
      if (p) {
        t.run_id = p.run_id;
        t.stale_closes = p.stale_closes;
      }
    }
    if (u.limits) this.levels.set(u.limits.level_id, u.limits.level);
    this.users.set(u.uid, u);
  }

  private kick(uid: number): void {
    const u = this.users.get(uid);
    if (!u) return;
    u.kicks.add(this.nodeId);
    clearTimeout(this.kickTimers.get(uid));
    const timer = setTimeout(() => {
      this.kickTimers.delete(uid);
      this.users.get(uid)?.kicks.delete(this.nodeId);
    }, KICK_MS);
    timer.unref();
    this.kickTimers.set(uid, timer);
  }

  private scheduleSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, 200);
    this.saveTimer.unref();
  }

  /** Writes state.json now (also at shutdown). */
  save(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    const saved: Saved = {
      version: 1,
      node: this.nodeWire,
      users: [...this.users.values()].map(userToWire),
      contact_at: this.contactAt,
    };
    this.savedContact = this.contactAt ?? 0;
    writeFileAtomic(this.file, JSON.stringify(saved));
  }

  stop(): void {
    for (const t of this.kickTimers.values()) clearTimeout(t);
    this.kickTimers.clear();
    if (this.saveTimer) this.save();
  }
}
