import { NodeStatus, parseFrpProxyName, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { DAY_MS, SHANGHAI_OFFSET_MS } from "../../shared/time";
import { transact } from "../../shared/tx";
import { loadRules } from "../tunnels/illegal-rules";
import { collectTraffic, loadRuntime } from "./billing";
import { DashboardError, fetchProxies, fetchServerInfo, type ProxyStat, type ServerInfo } from "./dashboard-client";
import { unsupportedFrps } from "./frps-version";
import type { PolledTunnel, PollOptions, PollResult, Seen } from "./poll-common";
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

/** The proxy types Burrow's tunnels use (the dashboard lists proxies per type). */
const PROXY_TYPES = ["tcp", "udp", "http", "https"] as const;
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
    const message = (err as Error).message;
    await recordHealth(ctx, node, status, now, message, null);
    return {
      node_id: nodeId,
      status,
      error: message,
      proxies: 0,
      charged: 0,
      restarted: false,
      deferred: false,
      tails: 0,
    };
  }

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
    await collectTraffic(ctx, node, { now, limits, runtime, info, stats, mine, tunnels, result });
  } else {
    await transact(ctx, async (trx) => {
      await holdNode(trx, nodeId);
      await reconcileStatus(trx, mine, tunnels, now);
    });
  }
  await recordHealth(ctx, node, result.status, now, tooOld, info);
  if (!result.deferred) {
    const r = await resolveTails(ctx, node, now, limits, { limit: opts.tailBatch ?? TAIL_BATCH });
    result.charged += r.charged;
    result.tails += r.resolved;
  }
  await scanRules(ctx, opts.rules ?? (await loadRules(ctx.db)), nodeId, node.subdomain_host, mine, tunnels);
  return result;
}

/** The node's tunnels the poll concerns: those frps shows and those Burrow thinks connected. */
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
      "custom_domains",
      "subdomain",
      "bandwidth",
    ])
    .where("node_id", "=", nodeId)
    .where((eb) =>
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
    )
    .execute();
  return new Map(rows.map((t) => [t.tun_id, t]));
}
