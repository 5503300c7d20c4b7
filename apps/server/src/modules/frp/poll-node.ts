import { NodeStatus, parseFrpProxyName, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { DAY_MS, SHANGHAI_OFFSET_MS } from "../../shared/time";
import { transact } from "../../shared/tx";
import type { NodeRow } from "../nodes/nodes.table";
import { loadRules } from "../tunnels/illegal-rules";
import { collectTraffic, loadRuntime } from "./billing";
import {
  DashboardError,
  fetchProxies,
  fetchServerInfo,
  fetchTraffic,
  type ProxyStat,
  type ServerInfo,
} from "./dashboard-client";
import { unsupportedFrps } from "./frps-version";
import type { DashboardReading, PolledTunnel, PollOptions, PollResult, Seen, TrafficHistory } from "./poll-common";
import { holdNode, NodeGone } from "./poll-guards";
import { reconcileStatus, recordHealth } from "./poll-status";
import { scanRules } from "./rule-scan";
import { resolveTails, TAIL_BATCH } from "./tails";

/*
 * One poll of one node, in order: health (serverinfo), the proxies' counters → billing.ts
 * (credits, quota, counter rows, tunnel status, then enforcement.ts's kicks), yesterday's tails
 * (tails.ts), the node's health row (poll-status.ts), the operators' rules (rule-scan.ts).
 * poller.ts schedules it for every node.
 */

/** The proxy types Burrow's tunnels use (the dashboard lists proxies per type; secret tunnels too, billed alike). */
const PROXY_TYPES = ["tcp", "udp", "http", "https", "stcp", "xtcp", "sudp"] as const;
/**
 * frps rotates its "today" counters at its local midnight and Burrow's clock may differ from the
 * node's by a little: traffic is not collected this close to midnight (the next poll gets it).
 */
const MIDNIGHT_GUARD_MS = 60_000;
/** A whole node poll's deadline when the caller gives none (one slow node fails alone). */
const DEFAULT_DEADLINE_MS = 20_000;

function nearShanghaiMidnight(now: Date): boolean {
  const ms = (now.getTime() + SHANGHAI_OFFSET_MS) % DAY_MS;
  return ms < MIDNIGHT_GUARD_MS || ms > DAY_MS - MIDNIGHT_GUARD_MS;
}

/**
 * Polls one node: `/api/serverinfo` for health (1 online; 2 unreachable or too slow; 3 reachable
 * but wrong, e.g. credentials refused), then `/api/proxy/{type}` for per-proxy "today" counters.
 * planCounters (counters.ts) turns them into credits and counter rows; this writes them, with the
 * customers' quota (chargeTraffic), in one transaction, so a crash never counts bytes twice. The
 * whole poll runs under one deadline (opts.signal or deadlineMs): a slow node fails alone.
 * Off-shelf nodes are not polled (null); a node deleted during its poll gives null too, and
 * nothing of the poll is written after the deletion (holdNode).
 */
export async function pollNode(ctx: AppContext, nodeId: number, opts: PollOptions = {}): Promise<PollResult | null> {
  try {
    return await pollOnce(ctx, nodeId, opts);
  } catch (err) {
    if (err instanceof NodeGone) return null;
    throw err;
  }
}

async function pollOnce(ctx: AppContext, nodeId: number, opts: PollOptions): Promise<PollResult | null> {
  const now = opts.now ?? new Date();
  const limits = {
    timeoutMs: opts.timeoutMs ?? 5_000,
    signal: opts.signal ?? AbortSignal.timeout(opts.deadlineMs ?? DEFAULT_DEADLINE_MS),
  };
  const node = await ctx.db.selectFrom("nodes").selectAll().where("node_id", "=", nodeId).executeTakeFirst();
  if (!node || node.status === NodeStatus.OffShelf) return null;
  // An agent-mode node's dashboard is on its loopback: its counters come as the agent's events.
  if (node.agent_mode === 1) return agentHealth(ctx, node, now);
  // Read before the dashboard: counters another poll writes after this fetch are newer than what
  // this poll saw, and comparing with them would look like a reset (the version check stops it).
  const runtime = await loadRuntime(ctx, nodeId);

  let info: ServerInfo;
  let stats: ProxyStat[];
  try {
    info = await fetchServerInfo(node, limits);
    stats = (await Promise.all(PROXY_TYPES.map((t) => fetchProxies(node, t, limits)))).flat();
  } catch (err) {
    const kind = err instanceof DashboardError ? err.kind : "bad";
    const status = kind === "unreachable" ? NodeStatus.Offline : NodeStatus.Exception;
    return failed(ctx, node, status, now, (err as Error).message);
  }
  const reading: DashboardReading = { info, stats, history: (name) => fetchTraffic(node, name, limits) };
  return applyReading(ctx, node, runtime, reading, now, opts);
}

async function failed(ctx: AppContext, node: NodeRow, status: number, now: Date, message: string): Promise<PollResult> {
  await recordHealth(ctx, node, status, now, message, null);
  return {
    node_id: node.node_id,
    status,
    error: message,
    proxies: 0,
    charged: 0,
    restarted: false,
    deferred: false,
    tails: 0,
  };
}

/**
 * Everything a poll does with one read of the dashboard, whoever read it: credits and quota
 * (billing.ts), tunnel status, yesterday's tails, the node's health row and the operators' rules.
 * `runtime` is the node's runtime row as it was before the read was taken.
 */
async function applyReading(
  ctx: AppContext,
  node: NodeRow,
  runtime: Awaited<ReturnType<typeof loadRuntime>>,
  reading: DashboardReading,
  now: Date,
  opts: PollOptions,
): Promise<PollResult> {
  const { info, stats } = reading;
  const nodeId = node.node_id;
  // An frps too old to enforce what Burrow relies on is an exception, with why; its traffic is
  // still real and still collected.
  const tooOld = unsupportedFrps(info.version);
  const result: PollResult = {
    node_id: nodeId,
    status: tooOld ? NodeStatus.Exception : NodeStatus.Online,
    error: tooOld,
    proxies: 0,
    charged: 0,
    restarted: false,
    deferred: nearShanghaiMidnight(now),
    tails: 0,
  };
  const ours = stats.map((s) => ({ s, ref: parseFrpProxyName(s.name) })).filter((x): x is Seen => x.ref !== null);
  result.proxies = ours.length;
  const tunnels = await loadTunnels(ctx, nodeId, ours);
  const mine = ours.filter((o) => tunnels.get(o.ref.tun_id)?.uid === o.ref.uid);

  if (!result.deferred) {
    await collectTraffic(ctx, node, { now, history: reading.history, runtime, info, stats, mine, tunnels, result });
  } else {
    await transact(ctx, async (trx) => {
      await holdNode(trx, nodeId);
      // Moved holds stay: the poll that releases one bills the proxy's last bytes first.
      await reconcileStatus(trx, nodeId, mine, tunnels, now, { releaseMoved: false });
    });
  }
  await recordHealth(ctx, node, result.status, now, tooOld, info);
  if (!result.deferred) {
    const r = await resolveTails(ctx, node, now, reading.history, { limit: opts.tailBatch ?? TAIL_BATCH });
    result.charged += r.charged;
    result.tails += r.resolved;
  }
  // A moved tunnel is judged where it is now (its domains point there).
  const here = mine.filter((o) => !tunnels.get(o.ref.tun_id)?.moved);
  await scanRules(ctx, opts.rules ?? (await loadRules(ctx.db)), nodeId, node.subdomain_host, here, tunnels);
  return result;
}

const AGENT_SILENT = "节点代理失联";

/** An agent-mode node whose agent has not reached the console for this long is offline. */
export const AGENT_SILENCE_MS = 90_000;

/**
 * The poller's look at an agent-mode node, without the network: online while its agent keeps in
 * touch (its stream, its events), offline with why once it has been silent for AGENT_SILENCE_MS.
 */
async function agentHealth(ctx: AppContext, node: NodeRow, now: Date): Promise<PollResult> {
  const runtime = await loadRuntime(ctx, node.node_id);
  const seen = runtime?.agent_seen_at ? Date.parse(runtime.agent_seen_at) : null;
  if (seen !== null && now.getTime() - seen < AGENT_SILENCE_MS) {
    // Back in touch after a silence: online again (its next counters bring frps's own health).
    const back = node.status === NodeStatus.Offline && !!runtime?.last_error?.startsWith(AGENT_SILENT);
    if (back) await recordHealth(ctx, node, NodeStatus.Online, now, null, null);
    return {
      node_id: node.node_id,
      status: back ? NodeStatus.Online : node.status,
      error: back ? null : (runtime?.last_error ?? null),
      proxies: 0,
      charged: 0,
      restarted: false,
      deferred: false,
      tails: 0,
    };
  }
  const since = seen === null ? "从未连接" : `最后联系 ${new Date(seen).toISOString()}`;
  return failed(ctx, node, NodeStatus.Offline, now, `${AGENT_SILENT}（${since}）`);
}

/**
 * Bills one dashboard read the node's agent took on 127.0.0.1 and sent as a "counters" event,
 * exactly as a poll bills its own read (applyReading). Histories come with the event when the
 * agent sent them (agent-protocol.md); a proxy without one reads as having none. Null when the
 * node is gone, off the shelf or no longer in agent mode (nothing billed).
 */
export async function billAgentReading(
  ctx: AppContext,
  nodeId: number,
  read: { info: ServerInfo; stats: ProxyStat[]; histories?: Record<string, TrafficHistory> },
  at: Date,
): Promise<PollResult | null> {
  try {
    const node = await ctx.db.selectFrom("nodes").selectAll().where("node_id", "=", nodeId).executeTakeFirst();
    if (!node || node.status === NodeStatus.OffShelf || node.agent_mode !== 1) return null;
    const runtime = await loadRuntime(ctx, nodeId);
    const histories = read.histories ?? {};
    const reading: DashboardReading = {
      info: read.info,
      stats: read.stats,
      history: async (name) => (Object.hasOwn(histories, name) ? histories[name] : null),
    };
    return await applyReading(ctx, node, runtime, reading, at, {});
  } catch (err) {
    if (err instanceof NodeGone) return null;
    throw err;
  }
}

/**
 * The node's tunnels the poll concerns: those frps shows and those Burrow thinks connected, and
 * those moved away while a session here held them (billed here until frps drops the proxy).
 */
async function loadTunnels(ctx: AppContext, nodeId: number, ours: Seen[]): Promise<Map<number, PolledTunnel>> {
  const rows = await ctx.db
    .selectFrom("tunnels")
    .select([
      "tun_id",
      "uid",
      "status",
      "enabled",
      "run_id",
      "tun_name",
      "remote_port",
      "remote_port_end",
      "custom_domains",
      "subdomain",
      "bandwidth",
      "node_id",
    ])
    .where((eb) =>
      eb.or([
        eb.and([
          eb("node_id", "=", nodeId),
          eb.or([
            eb("status", "=", TunnelStatus.Connected),
            eb("run_id", "is not", null),
            ...(ours.length
              ? [
                  eb(
                    "tun_id",
                    "in",
                    ours.map((o) => o.ref.tun_id),
                  ),
                ]
              : []),
          ]),
        ]),
        eb("moved_node_id", "=", nodeId),
      ]),
    )
    .execute();
  return new Map(rows.map(({ node_id, ...t }) => [t.tun_id, { ...t, moved: node_id !== nodeId }]));
}
