/**
 * The node agent ↔ console protocol's bodies (/work/notes/agent-protocol.md → docs/agent.md): JSON
 * forms of the decision entries (Maps and Sets as arrays, Infinity as null) and the stream, lookup
 * and events messages. Both sides import these; nothing here touches a database or the network.
 */
import { type PluginDecisionKind, PluginDecisionKinds } from "@burrow/contract";
import { z } from "zod";
import type { ProxyStat, ServerInfo } from "./dashboard";
import type { NodeEntry, PlanLimits, TunnelEntry, UserEntry } from "./entries";

/** The console's routes the agent calls, and where the console serves the agent's bundle. */
export const AGENT_PATHS = Object.freeze({
  stream: "/api/agent/stream",
  lookup: "/api/agent/lookup",
  events: "/api/agent/events",
  download: "/download/agent/burrow-agent.mjs",
});

/** The console sends a ping line this often; the agent calls a link dead after DEAD_LINK_MS without a line. */
export const PING_MS = 15_000;
export const DEAD_LINK_MS = 45_000;
/** One events request carries at most this many events and bytes (413 beyond: the agent splits). */
export const MAX_BATCH_EVENTS = 500;
export const MAX_BATCH_BYTES = 1024 * 1024;

/** `Authorization: Bearer <node_id>.<secret>` for the agent's requests. */
export function agentAuthorization(nodeId: number, secret: string): string {
  return `Bearer ${nodeId}.${secret}`;
}

/** The node id and secret an agent presented, or null when the header is not of that form. */
export function parseAgentAuthorization(header: string | undefined): { nodeId: number; secret: string } | null {
  const m = /^Bearer (\d{1,10})\.(\S{1,200})$/.exec(header ?? "");
  if (!m) return null;
  const nodeId = Number(m[1]);
  return nodeId > 0 && Number.isSafeInteger(nodeId) ? { nodeId, secret: m[2] } : null;
}

/** A node as the stream sends it: no secret (the agent has its own), with its level's rank. */
export interface NodeWire {
  node_id: number;
  status: number;
  level_id: number;
  /** plan_levels.level of the node's level: a plan needs a rank at least this */
  level_rank: number;
  bandwidth: number;
}

export type TunnelWire = TunnelEntry;

export interface DomainWire {
  name: string;
  node_id: number;
  /** epoch ms, null while verified (no end) */
  until_ms: number | null;
  /** UsableDomain.taken */
  taken?: true;
}

/** A customer as the stream and lookup send it. `endMs` is not sent: it is limits.end_at. */
export interface UserWire {
  uid: number;
  active: boolean;
  token: string;
  limits: PlanLimits | null;
  tunnels: TunnelWire[];
  kicks: number[];
  domains: DomainWire[];
}

export function nodeToWire(node: NodeEntry, levelRank: number): NodeWire {
  return {
    node_id: node.node_id,
    status: node.status,
    level_id: node.level_id,
    level_rank: levelRank,
    bandwidth: node.bandwidth,
  };
}

/** The node entry the agent decides with; the secret is the agent's own NODE_SECRET. */
export function nodeFromWire(w: NodeWire, secret: string): NodeEntry {
  return { node_id: w.node_id, status: w.status, level_id: w.level_id, bandwidth: w.bandwidth, secret };
}

export function userToWire(u: UserEntry): UserWire {
  return {
    uid: u.uid,
    active: u.active,
    token: u.token,
    limits: u.limits,
    tunnels: [...u.tunnels.values()].map((t) => ({ ...t, custom_domains: [...t.custom_domains] })),
    kicks: [...u.kicks],
    domains: [...u.domains].map(([name, d]) => ({
      name,
      node_id: d.node_id,
      until_ms: Number.isFinite(d.untilMs) ? d.untilMs : null,
      ...(d.taken ? { taken: true as const } : {}),
    })),
  };
}

export function userFromWire(w: UserWire): UserEntry {
  const end = w.limits?.end_at;
  return {
    uid: w.uid,
    active: w.active,
    token: w.token,
    limits: w.limits,
    endMs: end ? Date.parse(end) : null,
    tunnels: new Map(w.tunnels.map((t) => [t.tun_id, { ...t, custom_domains: [...t.custom_domains] }])),
    kicks: new Set(w.kicks),
    domains: new Map(
      w.domains.map((d) => [
        d.name,
        { node_id: d.node_id, untilMs: d.until_ms ?? Infinity, ...(d.taken ? { taken: true as const } : {}) },
      ]),
    ),
  };
}

/** One line of GET /api/agent/stream (NDJSON). The first line of every connection is a snapshot. */
export type StreamLine =
  | { type: "snapshot"; node: NodeWire; users: UserWire[]; at: number }
  | { type: "user"; uid: number; user: UserWire | null }
  | { type: "node"; node: NodeWire }
  | { type: "kick"; uid: number }
  | { type: "ping"; at: number };

/** POST /api/agent/lookup */
export interface LookupBody {
  uid: number;
  /** the frp access token the client presented (metas.token): the console answers only when it matches */
  token: string;
}
export interface LookupAnswer {
  user: UserWire | null;
}

export type GracePolicy = "keep" | "refuse";

/** What the agent learns on the node and journals until the console has applied it. */
export type AgentEventBody =
  /** a NewProxy admitted while no session or this one held the tunnel: run_id holds it (FrpWriter.online) */
  | { kind: "hold"; data: { tun_id: number; uid: number; run_id: string; stale_closes: number } }
  /** a CloseProxy of the tunnel (FrpWriter.offline); announce: the tunnel is blocked, tell every process once written */
  | { kind: "release"; data: { tun_id: number; uid: number; run_id: string; announce: boolean } }
  /** a NewUserConn admitted (FrpWriter.conn; node_id is the agent's node) */
  | {
      kind: "conn";
      data: { tun_id: number; uid: number; proxy_type: string; remote_addr: string; ip: string; at: number };
    }
  /**
   * 连接诊断 (FrpWriter.decision): identical decisions of one minute collapsed into one event with
   * their count; tun_id 0 = about the user's sessions on the node
   */
  | {
      kind: "decision";
      data: {
        tun_id: number;
        uid: number;
        kind: PluginDecisionKind;
        reason: string;
        count: number;
        first: number;
        last: number;
      };
    }
  /** an allowed Login (FrpWriter.login) */
  | { kind: "login"; data: { uid: number; version: string | null; address: string | null } }
  /** 访客防护: the ban rule banned a visitor on the node (FrpWriter.ban): the console lists it and streams it to every process */
  | { kind: "ban"; data: { tun_id: number; uid: number; ip: string; reason: string; at: number; until: number } }
  /** one read of the frps dashboard on the node (cumulative counters: billed like the poller's read) */
  | { kind: "counters"; data: { proxies: ProxyStat[]; server_info: ServerInfo | null } }
  /** the agent's grace while the console is unreachable */
  | { kind: "grace"; data: { state: "entered" | "expired" | "left"; policy: GracePolicy } };

export type AgentEventKind = AgentEventBody["kind"];

/** seq: strictly increasing per journal stream; at: when it happened on the node (epoch ms). */
export type AgentEvent = { seq: number; at: number } & AgentEventBody;

/** POST /api/agent/events */
export interface EventsBody {
  /** the agent journal's id (a uuid, fixed for the journal's life) */
  stream: string;
  events: AgentEvent[];
}
/** the highest seq of the stream the console has applied (0 when none) */
export interface EventsAnswer {
  acked: number;
}

/**
 * Most decisions one event may count (the agent starts a new event beyond it): a count is shown to
 * the customer as is, so a node must not be able to claim an absurd one.
 */
export const MAX_DECISION_COUNT = 100_000;

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const nullCount = count.nullable();
const runId = z.string().min(1).max(64);
const proxyStat = z.object({
  name: z.string().max(1000),
  type: z.string().max(20),
  todayIn: nullCount,
  todayOut: nullCount,
  curConns: nullCount,
  online: z.boolean().nullable(),
  clientId: z.string().max(1000).nullable(),
  lastStartTime: z.string().max(1000).nullable(),
  lastCloseTime: z.string().max(1000).nullable(),
});
const serverInfo = z.object({
  version: z.string().max(40),
  bindPort: z.number(),
  curConns: nullCount,
  clientCounts: nullCount,
  totalTrafficIn: nullCount,
  totalTrafficOut: nullCount,
  proxyTypeCount: z.record(z.string().max(20), count),
});
const head = { seq: id, at: count };
const agentEvent = z.discriminatedUnion("kind", [
  z.object({
    ...head,
    kind: z.literal("hold"),
    data: z.object({ tun_id: id, uid: id, run_id: runId, stale_closes: z.number().int().min(-1) }),
  }),
  z.object({
    ...head,
    kind: z.literal("release"),
    data: z.object({ tun_id: id, uid: id, run_id: runId, announce: z.boolean() }),
  }),
  z.object({
    ...head,
    kind: z.literal("conn"),
    data: z.object({
      tun_id: id,
      uid: id,
      proxy_type: z.string().max(16),
      remote_addr: z.string().max(100),
      ip: z.string().max(100),
      at: count,
    }),
  }),
  z.object({
    ...head,
    kind: z.literal("decision"),
    data: z.object({
      tun_id: count,
      uid: id,
      kind: z.enum(PluginDecisionKinds),
      reason: z.string().max(1000),
      count: z.number().int().min(1).max(MAX_DECISION_COUNT),
      first: count,
      last: count,
    }),
  }),
  z.object({
    ...head,
    kind: z.literal("login"),
    data: z.object({ uid: id, version: z.string().max(100).nullable(), address: z.string().max(100).nullable() }),
  }),
  z.object({
    ...head,
    kind: z.literal("ban"),
    data: z.object({
      tun_id: id,
      uid: id,
      ip: z.string().min(1).max(100),
      reason: z.string().max(200),
      at: count,
      until: count,
    }),
  }),
  z.object({
    ...head,
    kind: z.literal("counters"),
    data: z.object({ proxies: z.array(proxyStat).max(100_000), server_info: serverInfo.nullable() }),
  }),
  z.object({
    ...head,
    kind: z.literal("grace"),
    data: z.object({ state: z.enum(["entered", "expired", "left"]), policy: z.enum(["keep", "refuse"]) }),
  }),
]);

/** The events body's schema (the console validates what a node sends: 400 naming the field). */
export const EventsBodySchema = z.object({
  stream: z.string().min(1).max(64),
  events: z
    .array(agentEvent)
    .max(MAX_BATCH_EVENTS)
    .refine((es) => es.every((e, i) => i === 0 || e.seq > es[i - 1].seq), "seq 必须严格递增"),
});
