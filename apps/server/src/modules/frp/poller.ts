import { type NodePollResult, NodeStatus, parseFrpProxyName, TunnelStatus } from "@burrow/contract";
import type { Kysely, Selectable } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { acquireLease, startJobs } from "../../shared/jobs";
import { parseJson } from "../../shared/json";
import { addDays, DAY_MS, SHANGHAI_OFFSET_MS, shanghaiDate } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { lockNode } from "../nodes/nodes.repository";
import { setNodeHealth } from "../nodes/nodes.service";
import type { NodeRow } from "../nodes/nodes.table";
import { chargeTraffic, getPlanLimits } from "../subscriptions/quota";
import { type CompiledRule, flagByRules, loadRules } from "../tunnels/illegal-rules";
import {
  addTunnelTraffic,
  holdTunnel,
  pruneTunnelConns,
  releaseTunnelHold,
  tunnelSeenOnline,
  tunnelsGone,
} from "../tunnels/sessions";
import { tunnelDomains } from "../tunnels/tunnels.repository";
import {
  allowedIncrease,
  type CounterInput,
  type Credit,
  counterDelta,
  daysBetween,
  inflightBytes,
  type OpenProxy,
  type ProxySample,
  planCounters,
  type StoredCounter,
} from "./counters";
import {
  DashboardError,
  fetchProxies,
  fetchServerInfo,
  fetchTraffic,
  type ProxyStat,
  type RequestLimits,
  type ServerInfo,
} from "./dashboard-client";
import type { NodeRuntimeTable, ProxyCounterTable } from "./frp.table";
import { unsupportedFrps } from "./frps-version";
import { effectiveBandwidth } from "./plugin";

export { counterDelta } from "./counters";

type ProxyCounterRow = Selectable<ProxyCounterTable>;

/** The proxy types Burrow's tunnels use (the dashboard lists proxies per type). */
const PROXY_TYPES = ["tcp", "udp", "http", "https"] as const;
/** Rows per multi-row statement: far below both drivers' bind-parameter limits. */
const CHUNK = 400;
/**
 * frps rotates its "today" counters at its local midnight and Burrow's clock may differ from the
 * node's by a little: traffic is not collected this close to midnight (the next poll gets it).
 */
const MIDNIGHT_GUARD_MS = 60_000;
/** A whole node poll's deadline when the caller gives none (one slow node fails alone). */
const DEFAULT_DEADLINE_MS = 20_000;
/** The plausibility bound of a node without a bandwidth cap: a 10 Gbit/s line per proxy. */
const NODE_LINE_MBPS = 10_000;
/** Histories read per poll to tell a restart from a rotation of frps's day. */
const SUSPECT_HISTORIES = 32;
/** A node seen rotating away from Shanghai midnight stays "skewed" this long (it rotates daily). */
const SKEW_MEMORY_MS = 2 * DAY_MS;
/** History requests in flight per node while collecting yesterday's tails. */
const HISTORY_CONCURRENCY = 16;
/**
 * Tails collected per node per poll. The first poll of a day only notes them, so that it costs
 * what any poll costs; each poll then reads this many histories (1,000 proxies: ten polls).
 */
const TAIL_BATCH = 100;

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

function nearShanghaiMidnight(now: Date): boolean {
  const ms = (now.getTime() + SHANGHAI_OFFSET_MS) % DAY_MS;
  return ms < MIDNIGHT_GUARD_MS || ms > DAY_MS - MIDNIGHT_GUARD_MS;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** Thrown when the node was deleted while it was polled: the poll writes nothing after that. */
export class NodeGone extends Error {
  constructor(nodeId: number) {
    super(`node ${nodeId} was deleted while it was polled`);
    this.name = "NodeGone";
  }
}

/**
 * First thing in each of a poll's write transactions: the node is still there, and stays until
 * commit (lockNode's key share, which a deletion waits for). Without it a node deleted mid-poll
 * got back what its deletion removed (forgetNode's counters and runtime row, releaseNodeHolds'
 * holds) or a kick, with nothing left to ever remove them.
 */
async function holdNode(trx: Kysely<DB>, nodeId: number): Promise<void> {
  if (!(await lockNode(trx, nodeId, "key share"))) throw new NodeGone(nodeId);
}

/** Writes the node's health; announces a status change to the frp decision caches. */
async function recordHealth(
  ctx: AppContext,
  node: NodeRow,
  status: number,
  now: Date,
  error: string | null,
  info: ServerInfo | null,
): Promise<void> {
  // Values the dashboard did not give validly keep what the last poll stored.
  const known = <K extends string>(k: K, v: number | null) => (v === null ? {} : ({ [k]: v } as Record<K, number>));
  const values = {
    node_id: node.node_id,
    last_poll_at: now.toISOString(),
    last_error: error,
    ...(info && {
      version: info.version || null,
      ...known("cur_conns", info.curConns),
      ...known("client_counts", info.clientCounts),
      proxy_counts: JSON.stringify(info.proxyTypeCount),
      ...known("traffic_in", info.totalTrafficIn),
      ...known("traffic_out", info.totalTrafficOut),
    }),
  };
  const { node_id: _id, ...update } = values;
  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    if (node.status !== status) await setNodeHealth(trx, node.node_id, status);
    await trx
      .insertInto("node_runtime")
      .values(values)
      .onConflict((oc) => oc.column("node_id").doUpdateSet(update))
      .execute();
  });
}

type Ref = { uid: number; tun_id: number };
type Seen = { s: ProxyStat; ref: Ref };

/** The node's most bytes per second per proxy and direction: its bandwidth cap, or the line rate. */
const nodeRate = (node: NodeRow): number => (node.bandwidth > 0 ? node.bandwidth : NODE_LINE_MBPS) * 125_000;

const storedCounter = (c: ProxyCounterRow): StoredCounter => ({
  tun_id: c.tun_id,
  day: c.day,
  last_in: Number(c.last_in),
  last_out: Number(c.last_out),
  cur_conns: Number(c.cur_conns),
  online: Number(c.online),
  start_time: c.start_time,
  tail_day: c.tail_day,
  tail_until: c.tail_until,
  tail_in: Number(c.tail_in),
  tail_out: Number(c.tail_out),
  tail_fresh: Number(c.tail_fresh),
  updated_at: c.updated_at,
  conns_since: c.conns_since,
  conns_credit: Number(c.conns_credit),
});

async function loadCounters(ctx: AppContext, nodeId: number, names?: string[]): Promise<Map<string, StoredCounter>> {
  let q = ctx.db.selectFrom("proxy_counters").selectAll().where("node_id", "=", nodeId);
  if (names) q = q.where("proxy_name", "in", names);
  return new Map((await q.execute()).map((c) => [c.proxy_name, storedCounter(c)]));
}

const loadRuntime = (ctx: AppContext, nodeId: number) =>
  ctx.db.selectFrom("node_runtime").selectAll().where("node_id", "=", nodeId).executeTakeFirst();

/** A node whose frps was seen rotating away from Shanghai midnight in the last two days. */
const isSkewed = (at: string | null | undefined, now: Date): boolean =>
  !!at && now.getTime() - Date.parse(at) < SKEW_MEMORY_MS;

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

interface Collect {
  now: Date;
  limits: RequestLimits;
  runtime: Selectable<NodeRuntimeTable> | undefined;
  info: ServerInfo;
  stats: ProxyStat[];
  mine: Seen[];
  tunnels: Map<number, PolledTunnel>;
  result: PollResult;
}

/**
 * The billing half of a poll: plans the counters (a pure function), does the I/O the plan asks
 * for (pending tails of rolled proxies first; the history of proxies whose counters went back,
 * to tell a restart from a rotation of frps's day), then writes credits, quota, counter rows and
 * tunnel status in one transaction under the node's counters version.
 */
async function collectTraffic(ctx: AppContext, node: NodeRow, x: Collect): Promise<void> {
  const { now, result } = x;
  const day = shanghaiDate(now);
  let runtime = x.runtime;
  let counters = await loadCounters(ctx, node.node_id);
  const rate = nodeRate(node);
  const samples: ProxySample[] = x.mine.map(({ s, ref }) => ({ ...s, tun_id: ref.tun_id, uid: ref.uid }));
  const input = (): CounterInput => ({
    day,
    now,
    samples,
    counters,
    server:
      x.info.totalTrafficIn === null || x.info.totalTrafficOut === null
        ? null
        : { in: x.info.totalTrafficIn, out: x.info.totalTrafficOut },
    prevServer:
      runtime?.last_poll_at && !runtime.last_error && shanghaiDate(runtime.last_poll_at) === day
        ? { in: Number(runtime.traffic_in), out: Number(runtime.traffic_out) }
        : null,
    maxRate: () => rate,
    skewed: isSkewed(runtime?.rollover_skew_at, now),
    prevPollAt: runtime?.last_poll_at && !runtime.last_error ? runtime.last_poll_at : null,
  });
  let plan = planCounters(input());
  const histories = new Map<string, { in: number; out: number }>();
  if (plan.staleTails.length || plan.suspects.length) {
    if (plan.staleTails.length) {
      // A tail from an earlier midnight still pending is collected first: a row holds one tail.
      const r = await resolveTails(ctx, node, now, x.limits, { names: plan.staleTails, limit: plan.staleTails.length });
      result.charged += r.charged;
      result.tails += r.resolved;
      runtime = await loadRuntime(ctx, node.node_id);
      counters = await loadCounters(ctx, node.node_id);
    }
    const suspects = await mapLimit(plan.suspects.slice(0, SUSPECT_HISTORIES), HISTORY_CONCURRENCY, async (name) => {
      const h = await fetchTraffic(node, name, x.limits).catch(() => null);
      // "Yesterday" as frps sees it; no history (or no valid one) reads as a restart.
      return { name, h: { in: h?.in[1] ?? 0, out: h?.out[1] ?? 0 } };
    });
    for (const { name, h } of suspects) histories.set(name, h);
    plan = planCounters({ ...input(), histories });
  }
  result.restarted = plan.restarted;
  if (plan.refused.length)
    ctx.log.warn(
      { node_id: node.node_id, refused: plan.refused.slice(0, 20), count: plan.refused.length },
      "frp poll: counters grew more than the node's bandwidth allows, not billed",
    );
  if (plan.unknown.length)
    ctx.log.warn(
      { node_id: node.node_id, proxies: plan.unknown.slice(0, 20), count: plan.unknown.length },
      "frp poll: invalid counters from the dashboard, skipped this round",
    );
  if (plan.rotated)
    ctx.log.warn({ node_id: node.node_id }, "frp poll: frps rotated its day away from Asia/Shanghai midnight");

  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    await claimCounters(trx, node.node_id, runtime?.counters_version ?? null);
    if (plan.rotated)
      await trx
        .updateTable("node_runtime")
        .set({ rollover_skew_at: now.toISOString() })
        .where("node_id", "=", node.node_id)
        .execute();
    for (const [uid, bytes] of await addTunnelTraffic(trx, node.node_id, plan.credits)) {
      result.charged += bytes;
      await chargeTraffic(trx, uid, bytes);
    }
    for (const rows of chunks(plan.rows)) {
      await trx
        .insertInto("proxy_counters")
        .values(rows.map((r) => ({ ...r, node_id: node.node_id })))
        .onConflict((oc) =>
          oc.columns(["node_id", "proxy_name"]).doUpdateSet((eb) => ({
            tun_id: eb.ref("excluded.tun_id"),
            day: eb.ref("excluded.day"),
            last_in: eb.ref("excluded.last_in"),
            last_out: eb.ref("excluded.last_out"),
            cur_conns: eb.ref("excluded.cur_conns"),
            online: eb.ref("excluded.online"),
            start_time: eb.ref("excluded.start_time"),
            tail_day: eb.ref("excluded.tail_day"),
            tail_until: eb.ref("excluded.tail_until"),
            tail_in: eb.ref("excluded.tail_in"),
            tail_out: eb.ref("excluded.tail_out"),
            tail_fresh: eb.ref("excluded.tail_fresh"),
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
    }
    if (plan.restarted) {
      // Stats of proxies frps no longer shows are gone with the restart: start them afresh. Not
      // on one proxy's new entry beside unchanged ones (planCounters: a purge, a DELETE of offline
      // proxies, a type change): the rows of proxies gone then stay, so one that comes back on a
      // later day has its new entry's bytes of the day it was last seen read as a tail. The rows
      // to drop are named, a chunk at a time: "not in" every listed name went over the bind
      // parameters of one statement (SQLite 32,766, PostgreSQL 65,535) on a large node, failing
      // every poll of it while an entry stayed new.
      const listed = new Set(x.stats.map((s) => s.name));
      const stale = [...counters.keys()].filter((name) => !listed.has(name));
      for (const names of chunks(stale))
        await trx
          .deleteFrom("proxy_counters")
          .where("node_id", "=", node.node_id)
          .where("proxy_name", "in", names)
          .execute();
    }
    await reconcileStatus(trx, x.mine, x.tunnels, now);
  });
  await reviewKicks(ctx, node, now, plan.open, x.tunnels);
}

/**
 * Bounded overage on long connections. frps counts a connection's bytes when it closes, so an
 * SSH forward or a VPN can carry any amount while the counters stand still. For each customer with
 * connections open on the node, the bytes those could hold uncounted (inflightBytes, at the
 * tunnel's enforced bandwidth) are compared with the quota left: when the quota is smaller, their
 * sessions on this node are kicked (Ping refused, see plugin.ts) so that frps closes the
 * connections and counts them; the kick is lifted at the first poll where the estimate fits again
 * (after the kick the connections are closed and counted), so a customer with quota left
 * reconnects. Overage is then at most the bandwidth × (poll interval + heartbeat interval) + 1 s.
 */
async function reviewKicks(
  ctx: AppContext,
  node: NodeRow,
  now: Date,
  open: OpenProxy[],
  tunnels: Map<number, PolledTunnel>,
): Promise<void> {
  const byUser = new Map<number, OpenProxy[]>();
  for (const o of open) byUser.set(o.uid, [...(byUser.get(o.uid) ?? []), o]);
  const standing = new Set(
    (await ctx.db.selectFrom("frp_kicks").select("uid").where("node_id", "=", node.node_id).execute()).map(
      (k) => k.uid,
    ),
  );
  const until = new Date(now.getTime() + 2 * ctx.config.FRP_POLL_INTERVAL * 1000).toISOString();
  /** kicks to write (an estimate) and to lift (null), in uid order: two polls of the node at once lock rows alike */
  const changes: [number, { inflight: number; remaining: number } | null][] = [];
  for (const uid of new Set([...byUser.keys(), ...standing])) {
    const limits = byUser.has(uid) ? await getPlanLimits(ctx.db, uid) : null;
    let inflight = 0;
    for (const o of byUser.get(uid) ?? []) {
      const mbps = effectiveBandwidth(tunnels.get(o.tun_id)?.bandwidth ?? 0, limits?.bandwidth ?? 0, node.bandwidth);
      inflight += inflightBytes(o, (mbps || NODE_LINE_MBPS) * 125_000, now);
    }
    const remaining = limits ? Math.max(0, limits.traffic_quota - limits.traffic_used) : 0;
    if (limits && remaining < inflight) changes.push([uid, { inflight, remaining }]);
    else if (standing.has(uid)) changes.push([uid, null]);
  }
  if (!changes.length) return;
  changes.sort((a, b) => a[0] - b[0]);
  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    for (const [uid, estimate] of changes) {
      if (!estimate) {
        await trx.deleteFrom("frp_kicks").where("node_id", "=", node.node_id).where("uid", "=", uid).execute();
      } else {
        const values = { ...estimate, until };
        await trx
          .insertInto("frp_kicks")
          .values({ uid, node_id: node.node_id, created_at: now.toISOString(), ...values })
          .onConflict((oc) => oc.columns(["uid", "node_id"]).doUpdateSet(values))
          .execute();
        if (standing.has(uid)) continue;
        ctx.log.info({ node_id: node.node_id, uid, ...estimate }, "frp: kicking sessions to count open connections");
      }
      // Kicks are frp's own rows: the customer's decision caches hear of a new or lifted one.
      trx.changes.emit("subscription.changed", { uid });
    }
  });
}

/**
 * Collects noted tails: reads each proxy's 7-day history (`/api/traffic/{name}`) and credits the
 * tail day (what came after the counters last seen, or everything for a fresh stats entry) and
 * the days between it and the day the tail was noted, in full. Written under the node's counters
 * version like a poll, so a tail is credited once. A history frps no longer has (restart, purge,
 * DELETE of offline proxies) gives nothing, and a new entry's (a type change too) holds nothing
 * before it began; a request that failed, a bucket that is not a valid counter or a day above
 * what the node's bandwidth carries in a day leaves the tail for the next poll (a tail older than
 * the history's 7 days is dropped).
 */
async function resolveTails(
  ctx: AppContext,
  node: NodeRow,
  now: Date,
  limits: RequestLimits,
  opts: { limit: number; names?: string[] },
): Promise<{ resolved: number; charged: number }> {
  if (opts.limit <= 0) return { resolved: 0, charged: 0 };
  let q = ctx.db
    .selectFrom("proxy_counters")
    .selectAll()
    .where("node_id", "=", node.node_id)
    .where("tail_day", "is not", null);
  if (opts.names) q = q.where("proxy_name", "in", opts.names);
  const rows = await q.orderBy("proxy_name").limit(opts.limit).execute();
  if (!rows.length) return { resolved: 0, charged: 0 };
  const runtime = await ctx.db
    .selectFrom("node_runtime")
    .select("counters_version")
    .where("node_id", "=", node.node_id)
    .executeTakeFirst();
  const histories = await mapLimit(rows, HISTORY_CONCURRENCY, async (row) => {
    try {
      return { row, h: await fetchTraffic(node, row.proxy_name, limits), failed: false };
    } catch {
      return { row, h: null, failed: true };
    }
  });
  const today = shanghaiDate(now);
  const perDay = allowedIncrease(nodeRate(node), DAY_MS);
  const credits: Credit[] = [];
  const done: string[] = [];
  for (const { row, h, failed } of histories) {
    if (failed || !row.tail_day) continue;
    const ref = parseFrpProxyName(row.proxy_name);
    const k = daysBetween(row.tail_day, today);
    if (!h || !ref || k < 1 || k > 6) {
      done.push(row.proxy_name);
      continue;
    }
    const mine: Credit[] = [];
    let valid = true;
    const credit = (d: string, i: number | null | undefined, o: number | null | undefined) => {
      if (i === null || o === null || (i ?? 0) > perDay || (o ?? 0) > perDay) valid = false;
      else if (i || o) mine.push({ tun_id: ref.tun_id, uid: ref.uid, day: d, traffic_in: i ?? 0, traffic_out: o ?? 0 });
    };
    const fresh = row.tail_fresh === 1;
    const tail = (last: number, v: number | null | undefined) =>
      v === null || v === undefined ? v : fresh ? v : counterDelta(last, v);
    credit(row.tail_day, tail(Number(row.tail_in), h.in[k]), tail(Number(row.tail_out), h.out[k]));
    const until = row.tail_until ?? today;
    for (let d = addDays(row.tail_day, 1); d < until; d = addDays(d, 1)) {
      const j = daysBetween(d, today);
      if (j >= 1 && j <= 6) credit(d, h.in[j], h.out[j]);
    }
    if (!valid) {
      ctx.log.warn({ node_id: node.node_id, proxy: row.proxy_name }, "frp poll: invalid traffic history, tail kept");
      continue;
    }
    done.push(row.proxy_name);
    credits.push(...mine);
  }
  if (!done.length) return { resolved: 0, charged: 0 };
  let charged = 0;
  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    await claimCounters(trx, node.node_id, runtime?.counters_version ?? null);
    for (const [uid, bytes] of await addTunnelTraffic(trx, node.node_id, credits)) {
      charged += bytes;
      await chargeTraffic(trx, uid, bytes);
    }
    for (const names of chunks(done)) {
      await trx
        .updateTable("proxy_counters")
        .set({ tail_day: null, tail_until: null, tail_in: 0, tail_out: 0, tail_fresh: 0 })
        .where("node_id", "=", node.node_id)
        .where("proxy_name", "in", names)
        .execute();
    }
  });
  return { resolved: done.length, charged };
}

/** Thrown when another poll wrote the node's counters after this one read them. */
export class PollConflict extends Error {
  constructor(nodeId: number) {
    super(`node ${nodeId} was polled by someone else meanwhile`);
    this.name = "PollConflict";
  }
}

/**
 * Compare-and-set on the node's counters version, first thing in the write transaction: a poll
 * that read version v writes only if it is still v. Leases keep two processes from polling one
 * node at once; this keeps even a poll that outlived its lease from counting bytes twice.
 */
async function claimCounters(trx: Kysely<DB>, nodeId: number, readVersion: number | null): Promise<void> {
  if (readVersion === null) {
    // First poll of the node: the row's primary key lets only one first poll through.
    await trx.insertInto("node_runtime").values({ node_id: nodeId, counters_version: 1 }).execute();
    return;
  }
  const r = await trx
    .updateTable("node_runtime")
    .set({ counters_version: readVersion + 1 })
    .where("node_id", "=", nodeId)
    .where("counters_version", "=", readVersion)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new PollConflict(nodeId);
}

type PolledTunnel = {
  bandwidth: number;
  tun_id: number;
  uid: number;
  status: number;
  enabled: number;
  run_id: string | null;
  tun_name: string;
  remote_port: number | null;
  custom_domains: string;
  subdomain: string | null;
};

/** The hold recorded for a blocked proxy frps shows online without a known session (frps < 0.67 names none). */
const DASHBOARD_HOLD = "dashboard";

/**
 * Makes tunnel status and holds follow what the dashboard shows (CloseProxy is best effort: an
 * frps restart may never send it): online proxies → connected, connected tunnels frps no longer
 * has online → offline. A blocked tunnel still online without a recorded session gets the
 * dashboard's client id as its hold, so that every session of its user on the node is refused at
 * the next heartbeat; a hold on a proxy frps no longer has online is released (a deleted tunnel's
 * domains with it, which it kept reserved until then).
 */
async function reconcileStatus(trx: Tx, seen: Seen[], tunnels: Map<number, PolledTunnel>, now: Date): Promise<void> {
  const onlineIds = new Set<number>();
  for (const { s, ref } of seen) {
    // A status frps did not give validly changes nothing this round.
    if (s.online === null) onlineIds.add(ref.tun_id);
    if (!s.online) continue;
    onlineIds.add(ref.tun_id);
    const t = tunnels.get(ref.tun_id);
    if (!t) continue;
    const blocked = t.status === TunnelStatus.Locked || t.status === TunnelStatus.Deleted || t.enabled !== 1;
    if (t.status === TunnelStatus.Offline && t.enabled === 1) {
      await tunnelSeenOnline(trx, t.tun_id, t.run_id ?? s.clientId, now.toISOString());
    } else if (blocked && !t.run_id) {
      await holdTunnel(trx, t, s.clientId ?? DASHBOARD_HOLD);
    }
  }
  const gone = [...tunnels.values()].filter((t) => !onlineIds.has(t.tun_id));
  await tunnelsGone(
    trx,
    gone.filter((t) => t.status === TunnelStatus.Connected).map((t) => t.tun_id),
  );
  for (const t of gone.filter((t) => t.status !== TunnelStatus.Connected && t.run_id !== null))
    await releaseTunnelHold(trx, t);
}

/** Judges the tunnels online on the node by the operators' rules (rules added later catch old tunnels). */
async function scanRules(
  ctx: AppContext,
  rules: CompiledRule[],
  nodeId: number,
  subdomainHost: string | null,
  seen: { s: ProxyStat; ref: { tun_id: number } }[],
  tunnels: Map<number, PolledTunnel>,
): Promise<void> {
  if (!rules.length) return;
  for (const { s, ref } of seen) {
    const t = tunnels.get(ref.tun_id);
    if (!s.online || !t || t.status === TunnelStatus.Locked || t.status === TunnelStatus.Deleted) continue;
    await flagByRules(ctx.db, rules, {
      tun_id: t.tun_id,
      uid: t.uid,
      node_id: nodeId,
      tun_name: t.tun_name,
      domains: tunnelDomains(
        { custom_domains: parseJson<string[]>(t.custom_domains, []), subdomain: t.subdomain },
        subdomainHost,
      ),
      remote_port: t.remote_port,
    });
  }
}

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
