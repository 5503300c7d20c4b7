import { NodeStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { acquireLease, startJobs } from "../../shared/jobs";
import { DAY_MS } from "../../shared/time";
import { loadRules } from "../tunnels/illegal-rules";
import { pruneTunnelConns } from "../tunnels/sessions";
import { mapLimit, type PollOptions, type PollResult } from "./poll-common";
import { PollConflict } from "./poll-guards";
import { pollNode } from "./poll-node";

/* The poller: every node polled each interval (poll-node.ts), and old visitor connections pruned. */

export interface PollAllOptions extends PollOptions {
  /** lease length per node; defaults to 80% of the poll interval */
  leaseMs?: number;
  /** nodes polled at once (default 64: each under its own deadline, so a slow one holds up no other) */
  concurrency?: number;
  /** lease holder name (default: this process) */
  holder?: string;
}

/**
 * Polls every node that is not off the shelf, each under its own lease row so that several
 * Burrow processes share the work and never poll one node twice in an interval. Nodes are polled
 * concurrently, each under its own deadline (deadlineMs, by default the lease), so a slow or
 * hostile dashboard fails its own poll and delays no other node's.
 */
export async function pollAll(ctx: AppContext, opts: PollAllOptions = {}): Promise<PollResult[]> {
  const now = opts.now ?? new Date();
  const leaseMs = opts.leaseMs ?? Math.floor(ctx.config.FRP_POLL_INTERVAL * 1000 * 0.8);
  const nodes = await ctx.db
    .selectFrom("nodes")
    .select("node_id")
    .where("status", "<>", NodeStatus.OffShelf)
    .orderBy("node_id")
    .execute();
  const rules = opts.rules ?? (await loadRules(ctx.db));
  const results = await mapLimit(nodes, opts.concurrency ?? 64, async ({ node_id }) => {
    if (!(await acquireLease(ctx.db, `frp-poll:${node_id}`, leaseMs, opts.holder, now))) return null;
    const started = performance.now();
    try {
      const r = await pollNode(ctx, node_id, { ...opts, now, rules, deadlineMs: opts.deadlineMs ?? leaseMs });
      if (r) ctx.metrics.poll(node_id, (performance.now() - started) / 1000, r.error !== null);
      return r;
    } catch (err) {
      if (err instanceof PollConflict) ctx.log.info({ node_id }, err.message);
      else {
        ctx.metrics.poll(node_id, (performance.now() - started) / 1000, true);
        ctx.log.error({ err, node_id }, "frp poll failed");
      }
      return null;
    }
  });
  return results.filter((r): r is PollResult => r !== null);
}

/** Deletes visitor-connection rows older than the retention (once an hour, one process). */
export async function pruneConnections(ctx: AppContext, now = new Date()): Promise<number> {
  if (!(await acquireLease(ctx.db, "frp-prune-conns", 3600_000, undefined, now))) return 0;
  const cutoff = new Date(now.getTime() - ctx.config.FRP_CONN_RETENTION_DAYS * DAY_MS).toISOString();
  return pruneTunnelConns(ctx.db, cutoff);
}

export interface PollerHandle {
  stop(): Promise<void>;
}

/**
 * Runs pollAll every interval (first run right away) until stopped. Ticks start at a fixed rate,
 * not an interval after the last one ended: a node that used its whole deadline does not push
 * back the next poll of the others.
 */
export function startPoller(ctx: AppContext, opts: { intervalMs: number }): PollerHandle {
  // The shared scheduler; each node is leased inside pollAll, so the loop itself takes no lease.
  const stop = startJobs(ctx, [
    {
      name: "frp.poll",
      everyMs: opts.intervalMs,
      lease: false,
      fixedRate: true,
      firstDelayMs: 0,
      run: async () => {
        await pollAll(ctx);
        await pruneConnections(ctx);
      },
    },
  ]);
  return { stop };
}
