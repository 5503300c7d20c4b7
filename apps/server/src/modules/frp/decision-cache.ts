import { type TunnelSchedule, TunnelStatus, UserStatus } from "@burrow/contract";
import {
  type CloseOutcome,
  closeHold,
  type DecisionState,
  type NodeEntry,
  openHold,
  type TunnelEntry,
  type UsableDomain,
  type UserEntry,
} from "@burrow/frp-decision";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { EventBus } from "../../shared/events";
import { parseJson } from "../../shared/json";
import { EventedCache, type LoadingCache } from "../../shared/loading-cache";
import { getPlanLimits } from "../subscriptions/quota";
import { loadUserShields } from "../tunnels/shield";

// The entries and rules live in @burrow/frp-decision (the node agent decides with the same code).
export {
  type CloseOutcome,
  type NodeEntry,
  secretEquals,
  type TunnelEntry,
  tunnelBlock,
  type UserEntry,
} from "@burrow/frp-decision";

/** Loads the domains a user may bind to tunnels (the domains module's gate, handed in by frp.routes). */
export type DomainLoader = (db: Kysely<DB>, uid: number) => Promise<Map<string, UsableDomain>>;

/** How long at most this process trusts a hold it took over the database's (until it is written). */
const RECENT_MS = 10_000;

/** A hold this process took (NewProxy) and may not have written yet. */
interface RecentHold {
  runId: string;
  stale: number;
  /** when the NewProxy came (epoch ms): the database holds it once last_online_at is as late */
  at: number;
  until: number;
}

/** Entries expire after about this long (±25%) even without an event (a lost pub/sub message heals). */
const TTL_MS = 5 * 60_000;

/**
 * How often an unknown node id may reload the node list (a node created while its event was
 * lost): unknown ids in plugin URLs cost at most one query per this interval, however many come.
 */
const NODE_MISS_RELOAD_MS = 10_000;

/**
 * Everything the frp plugin decides with, kept in memory: nodes (secret, level, status), store
 * level ranks, and per user their status, token, plan limits and tunnels. Loaded on first use and
 * dropped on every change event (user/subscription/tunnel/node.changed — cross-process through
 * Redis), so a plugin call costs no database round trip once its user is warm.
 */
export class FrpDecisionCache implements DecisionState {
  /** Every node, loaded at once (a few hundred rows at most): a miss is an answer, not a query. */
  private nodeMap: { map: Map<number, NodeEntry>; at: number } | null = null;
  private nodesLoading: Promise<Map<number, NodeEntry>> | null = null;
  private nodeMissReloadAt = 0;
  private nodeLoads = 0;
  private readonly users: LoadingCache<number, UserEntry | null>;
  private levels: Map<number, number> | null = null;
  /** Holds this process took lately: newer than the database until written. */
  private readonly recentRunIds = new Map<number, RecentHold>();
  private levelsLoading: Promise<Map<number, number>> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    events: EventBus,
    maxUsers = 200_000,
    private readonly loadDomains: DomainLoader = async () => new Map(),
  ) {
    // Read through while changes from other processes may be missed (Redis configured, not heard).
    this.users = new EventedCache((uid) => this.loadUser(uid), TTL_MS, maxUsers, events);
    events.on("user.changed", ({ uid }) => this.users.invalidate(uid));
    events.on("subscription.changed", ({ uid }) => this.users.invalidate(uid));
    events.on("domain.changed", ({ uid }) => this.users.invalidate(uid));
    events.on("tunnel.changed", ({ uid, tun_id, released }) => {
      if (released) this.recentRunIds.delete(tun_id);
      this.users.invalidate(uid);
    });
    // Changes announced while Redis was unreachable were missed: start over once it is back.
    events.onResync(() => this.clear());
    events.on("node.changed", () => {
      this.nodeMap = null;
      this.nodesLoading = null;
      // Level ranks change rarely and are announced with node.changed; reload them with any node change.
      this.levels = null;
      this.levelsLoading = null;
    });
  }

  /**
   * The node, or null when it does not exist. Unknown ids are answered from the node list in
   * memory; they are never cached one by one, so they cannot crowd out real nodes.
   */
  node(nodeId: number): NodeEntry | null | Promise<NodeEntry | null> {
    const now = Date.now();
    const snap = this.nodeMap;
    if (snap && now - snap.at < TTL_MS) {
      const hit = snap.map.get(nodeId);
      if (hit) return hit;
      if (now - this.nodeMissReloadAt < NODE_MISS_RELOAD_MS) return null;
      this.nodeMissReloadAt = now;
    }
    return this.loadNodes().then((m) => m.get(nodeId) ?? null);
  }

  /** Loads every node once (single flight); a change announced meanwhile discards the result. */
  private loadNodes(): Promise<Map<number, NodeEntry>> {
    if (this.nodesLoading) return this.nodesLoading;
    this.nodeLoads++;
    const p: Promise<Map<number, NodeEntry>> = this.db
      .selectFrom("nodes")
      .select(["node_id", "status", "level_id", "bandwidth", "plugin_secret"])
      .execute()
      .then(
        (rows) => {
          const map = new Map<number, NodeEntry>();
          for (const n of rows)
            map.set(n.node_id, {
              node_id: n.node_id,
              status: n.status,
              level_id: n.level_id,
              bandwidth: n.bandwidth,
              secret: n.plugin_secret,
            });
          if (this.nodesLoading === p) {
            this.nodeMap = { map, at: Date.now() };
            this.nodesLoading = null;
          }
          return map;
        },
        (err) => {
          if (this.nodesLoading === p) this.nodesLoading = null;
          throw err;
        },
      );
    this.nodesLoading = p;
    return p;
  }

  /** The user with plan limits and tunnels, or null when there is no such user. */
  user(uid: number): UserEntry | null | Promise<UserEntry | null> {
    return this.users.get(uid);
  }

  /** Rank of a store level (plan_levels.level); unknown levels rank 0. */
  levelRank(levelId: number): number | Promise<number> {
    if (this.levels) return this.levels.get(levelId) ?? 0;
    this.levelsLoading ??= this.db
      .selectFrom("plan_levels")
      .select(["id", "level"])
      .execute()
      .then((rows) => {
        const map = new Map(rows.map((r) => [r.id, r.level]));
        this.levels = map;
        return map;
      });
    return this.levelsLoading.then((m) => m.get(levelId) ?? 0);
  }

  /** A NewProxy of `runId` was allowed as the holder (openHold); remembered over the database until written. */
  proxyOpened(t: TunnelEntry, runId: string): void {
    openHold(t, runId);
    const now = Date.now();
    this.recentRunIds.set(t.tun_id, { runId, stale: t.stale_closes, at: now, until: now + RECENT_MS });
    if (this.recentRunIds.size > 50_000) this.sweepRecent();
  }

  /**
   * A CloseProxy of `runId` (closeHold). A release is not remembered over the database: a reload
   * before it is written finds the hold again, which refuses more, never less.
   */
  proxyClosed(t: TunnelEntry, runId: string): CloseOutcome {
    const outcome = closeHold(t, runId);
    if (outcome === "stale") {
      const recent = this.recentRunIds.get(t.tun_id);
      if (recent?.runId === runId) recent.stale = t.stale_closes;
    } else if (outcome === "released") this.recentRunIds.delete(t.tun_id);
    return outcome;
  }

  private sweepRecent(): void {
    const now = Date.now();
    for (const [k, v] of this.recentRunIds) if (v.until <= now) this.recentRunIds.delete(k);
  }

  /** Drops everything (tests, or after a configuration reload). */
  clear(): void {
    this.nodeMap = null;
    this.nodesLoading = null;
    this.users.clear();
    this.levels = null;
    this.levelsLoading = null;
    this.recentRunIds.clear();
  }

  /** Entries held now and node-list loads so far, for diagnostics (and tests). */
  stats(): { users: number; nodes: number; nodeLoads: number } {
    return { users: this.users.size, nodes: this.nodeMap?.map.size ?? 0, nodeLoads: this.nodeLoads };
  }

  private async loadUser(uid: number): Promise<UserEntry | null> {
    const [user, limits, tunnels, kicks, domains, shieldOf] = await Promise.all([
      this.db.selectFrom("users").select(["uid", "status", "frp_token"]).where("uid", "=", uid).executeTakeFirst(),
      getPlanLimits(this.db, uid),
      this.db
        .selectFrom("tunnels")
        .select([
          "tun_id",
          "uid",
          "node_id",
          "tun_name",
          "protocol",
          "remote_port",
          "remote_port_end",
          "custom_domains",
          "subdomain",
          "bandwidth",
          "enabled",
          "status",
          "banned_reason",
          "run_id",
          "stale_closes",
          "moved_node_id",
          "moved_run_id",
          "schedule",
          "secret_key",
          "last_online_at",
        ])
        .where("uid", "=", uid)
        // Deleted tunnels still held by a session (here or on the node it left) are kept: that session is to be cut off.
        .where((eb) =>
          eb.or([
            eb("status", "<>", TunnelStatus.Deleted),
            eb("run_id", "is not", null),
            eb("moved_run_id", "is not", null),
          ]),
        )
        .execute(),
      this.db
        .selectFrom("frp_kicks")
        .select("node_id")
        .where("uid", "=", uid)
        .where("until", ">", new Date().toISOString())
        .execute(),
      this.loadDomains(this.db, uid),
      loadUserShields(this.db, uid),
    ]);
    if (!user) return null;
    const map = new Map<number, TunnelEntry>();
    const now = Date.now();
    for (const { last_online_at, ...t } of tunnels) {
      const entry: TunnelEntry = {
        ...t,
        custom_domains: parseJson<string[]>(t.custom_domains, []),
        enabled: t.enabled === 1,
        shield: shieldOf(t),
        schedule: parseJson<TunnelSchedule | null>(t.schedule, null),
      };
      // A hold this process took moments ago may not be written yet: it stands until the row
      // shows a NewProxy written as late (then the database has it, and whatever came after).
      const recent = this.recentRunIds.get(t.tun_id);
      if (recent && recent.until > now && !(last_online_at && Date.parse(last_online_at) >= recent.at)) {
        entry.stale_closes = t.run_id === recent.runId ? Math.max(t.stale_closes, recent.stale) : recent.stale;
        entry.run_id = recent.runId;
      }
      map.set(t.tun_id, entry);
    }
    return {
      uid,
      active: user.status === UserStatus.Active,
      token: user.frp_token,
      limits,
      endMs: limits?.end_at ? Date.parse(limits.end_at) : null,
      tunnels: map,
      kicks: new Set(kicks.map((k) => k.node_id)),
      domains,
    };
  }
}
