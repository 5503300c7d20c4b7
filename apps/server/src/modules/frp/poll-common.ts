import type { NodePollResult } from "@burrow/contract";
import type { NodeRow } from "../nodes/nodes.table";
import type { CompiledRule } from "../tunnels/illegal-rules";
import type { ProxyStat, ServerInfo } from "./dashboard-client";

/*
 * What the parts of a node poll share (poll-node.ts runs them): its options and result, the
 * proxies it saw and the tunnels they belong to, the node's rate bound, bounded concurrency.
 */

/** The plausibility bound of a node without a bandwidth cap: a 10 Gbit/s line per proxy. */
export const NODE_LINE_MBPS = 10_000;
/** History requests in flight per node while collecting yesterday's tails. */
export const HISTORY_CONCURRENCY = 16;

export interface PollOptions {
  /** the poll's clock (tests move it across midnight) */
  now?: Date;
  /** per dashboard request */
  timeoutMs?: number;
  /** the whole poll's deadline (default DEFAULT_DEADLINE_MS) */
  deadlineMs?: number;
  /** or the caller's own deadline */
  signal?: AbortSignal;
  /** illegal-tunnel rules, when the caller already loaded them */
  rules?: CompiledRule[];
  /** yesterday's tails read from the 7-day history per poll (default TAIL_BATCH) */
  tailBatch?: number;
}

/** What a poll found (the API's NodePollResult) and what only the poller needs. */
export interface PollResult extends NodePollResult {
  /** traffic was left for the next poll (too close to midnight) */
  deferred: boolean;
  /** proxies whose last bytes of an earlier day were collected by this poll */
  tails: number;
}

/** One proxy's 7 daily buckets (frps's /api/traffic/{name}, index 0 = today), null when there is none. */
export type TrafficHistory = { in: (number | null)[]; out: (number | null)[] } | null;

/**
 * One read of a node's frps dashboard, wherever it was taken: by the poller over the network
 * (direct mode) or by the node agent on 127.0.0.1 and sent as a "counters" event (agent mode).
 * Both are billed by the same code (poll-node.ts applyReading).
 */
export interface DashboardReading {
  info: ServerInfo;
  stats: ProxyStat[];
  /** a proxy's history (suspects, tails); throws when it could not be read this time */
  history(name: string): Promise<TrafficHistory>;
}

export type Ref = { uid: number; tun_id: number };
/** A proxy of Burrow's (its name parsed) as the dashboard listed it. */
export type Seen = { s: ProxyStat; ref: Ref };

export type PolledTunnel = {
  bandwidth: number;
  tun_id: number;
  uid: number;
  status: number;
  enabled: number;
  run_id: string | null;
  tun_name: string;
  remote_port: number | null;
  /** a port range's last port, absent or null: one port */
  remote_port_end?: number | null;
  custom_domains: string;
  subdomain: string | null;
  /**
   * Moved to another node while a session here held it (tunnels.moved_node_id is this node): its
   * proxy here is billed like the others until it is gone, and its status is the other node's.
   */
  moved: boolean;
};

/** The node's most bytes per second per proxy and direction: its bandwidth cap, or the line rate. */
export const nodeRate = (node: NodeRow): number => (node.bandwidth > 0 ? node.bandwidth : NODE_LINE_MBPS) * 125_000;

export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}
