import { type NodePollResult, NodeStatus, parseFrpProxyName, TunnelStatus } from "@burrow/contract";
import { type Kysely, type Selectable, sql } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { acquireLease } from "../../shared/jobs";
import { addDays, shanghaiDate } from "../../shared/time";
import type { NodeRow } from "../nodes/nodes.table";
import { chargeTraffic } from "../subscriptions/quota";
import { type CompiledRule, flagByRules, loadRules } from "../tunnels/illegal-rules";
import { parseJson } from "../tunnels/tunnels.presenter";
import { tunnelDomains } from "../tunnels/tunnels.repository";
import {
  DashboardError,
  fetchProxies,
  fetchServerInfo,
  fetchTraffic,
  type ProxyStat,
  type ServerInfo,
} from "./dashboard-client";
import type { ProxyCounterTable } from "./frp.table";

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
const DAY_MS = 86_400_000;
const SHANGHAI_OFFSET_MS = 8 * 3600_000;
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

/** Bytes that flowed since `prev` given the counter now; a counter that went back was reset. */
export const counterDelta = (prev: number, cur: number): number => (cur >= prev ? cur - prev : cur);

const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

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

/** Writes the node's health; announces a status change to the frp decision caches. */
async function recordHealth(
  ctx: AppContext,
  node: NodeRow,
  status: number,
  now: Date,
  error: string | null,
  info: ServerInfo | null,
): Promise<void> {
  if (node.status !== status) {
    // An operator taking the node off the shelf meanwhile wins over the poller.
    await ctx.db
      .updateTable("nodes")
      .set({ status })
      .where("node_id", "=", node.node_id)
      .where("status", "<>", NodeStatus.OffShelf)
      .execute();
    ctx.events.emit("node.changed", { node_id: node.node_id });
  }
  const values = {
    node_id: node.node_id,
    last_poll_at: now.toISOString(),
    last_error: error,
    ...(info && {
      version: info.version || null,
      cur_conns: info.curConns,
      client_counts: info.clientCounts,
      proxy_counts: JSON.stringify(info.proxyTypeCount ?? {}),
      traffic_in: info.totalTrafficIn,
      traffic_out: info.totalTrafficOut,
    }),
  };
  const { node_id: _id, ...update } = values;
  await ctx.db
    .insertInto("node_runtime")
    .values(values)
    .onConflict((oc) => oc.column("node_id").doUpdateSet(update))
    .execute();
}

interface Credit {
  tun_id: number;
  uid: number;
  day: string;
  traffic_in: number;
  traffic_out: number;
}

/**
 * Polls one node: `/api/serverinfo` for health (1 online; 2 unreachable; 3 reachable but wrong,
 * e.g. credentials refused), then `/api/proxy/{type}` for per-proxy "today" counters. The
 * difference to the counters seen last time becomes traffic: per-day rows, tunnel totals and the
 * customer's quota (chargeTraffic), in one transaction with the new counters, so a crash never
 * counts bytes twice. Counters that went back mean frps restarted: what it shows is all new. A
 * new day fetches `/api/traffic/{name}` to collect yesterday's tail before frps rotated.
 * Off-shelf nodes are not polled (null).
 */
export async function pollNode(ctx: AppContext, nodeId: number, opts: PollOptions = {}): Promise<PollResult | null> {
  const now = opts.now ?? new Date();
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const node = await ctx.db.selectFrom("nodes").selectAll().where("node_id", "=", nodeId).executeTakeFirst();
  if (!node || node.status === NodeStatus.OffShelf) return null;
  let prevRuntime = await ctx.db
    .selectFrom("node_runtime")
    .selectAll()
    .where("node_id", "=", nodeId)
    .executeTakeFirst();

  let info: ServerInfo;
  let stats: ProxyStat[];
  try {
    info = await fetchServerInfo(node, timeoutMs);
    stats = (await Promise.all(PROXY_TYPES.map((t) => fetchProxies(node, t, timeoutMs)))).flat();
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

  const result: PollResult = {
    node_id: nodeId,
    status: NodeStatus.Online,
    error: null,
    proxies: 0,
    charged: 0,
    restarted: false,
    deferred: nearShanghaiMidnight(now),
    tails: 0,
  };
  const day = shanghaiDate(now);
  const ours = stats
    .map((s) => ({ s, ref: parseFrpProxyName(s.name) }))
    .filter((x): x is { s: ProxyStat; ref: { uid: number; tun_id: number } } => x.ref !== null);
  result.proxies = ours.length;

  const tunnels = new Map(
    (
      await ctx.db
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
        ])
        .where("node_id", "=", nodeId)
        .where((eb) =>
          eb.or([
            eb("status", "=", TunnelStatus.Connected),
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
        .execute()
    ).map((t) => [t.tun_id, t]),
  );
  const mine = ours.filter((o) => tunnels.get(o.ref.tun_id)?.uid === o.ref.uid);

  const announce = new Set<number>();
  const overQuota = new Set<number>();
  if (!result.deferred) {
    const counters = new Map(
      (await ctx.db.selectFrom("proxy_counters").selectAll().where("node_id", "=", nodeId).execute()).map((c) => [
        c.proxy_name,
        c,
      ]),
    );
    // Today's server-wide totals going back on the same day: frps restarted and every stats entry is new.
    const last = prevRuntime;
    const serverReset = Boolean(
      last?.last_poll_at &&
        !last.last_error &&
        shanghaiDate(last.last_poll_at) === day &&
        (info.totalTrafficIn < Number(last.traffic_in) || info.totalTrafficOut < Number(last.traffic_out)),
    );
    /**
     * A proxy's counters started again from zero since the last look: they went back, or its
     * stats entry is new — started at another time and never closed (frps keeps the last close
     * time of an entry across reconnects, so only a new entry, after a restart or a purge, has none).
     */
    const freshEntry = (s: ProxyStat, c: ProxyCounterRow): boolean =>
      c.start_time !== "" && s.lastStartTime !== c.start_time && s.lastCloseTime === "";
    const reset = (s: ProxyStat, c: ProxyCounterRow | undefined): boolean =>
      serverReset || (!!c && (s.todayIn < Number(c.last_in) || s.todayOut < Number(c.last_out) || freshEntry(s, c)));
    result.restarted =
      serverReset || mine.some(({ s }) => counters.get(s.name)?.day === day && reset(s, counters.get(s.name)));

    // A new day since the last look: yesterday's last bytes are only in the 7-day history. They
    // are noted as the row's tail and read later (resolveTails). A proxy that was offline then and
    // has not started since carried nothing: no tail.
    const quiet = (s: ProxyStat, c: ProxyCounterRow) => c.online === 0 && s.lastStartTime === c.start_time;
    const rolled = new Set(
      mine
        .filter(({ s }) => {
          const c = counters.get(s.name);
          return c && c.day < day && daysBetween(c.day, day) <= 6 && !quiet(s, c);
        })
        .map(({ s }) => s.name),
    );
    // A tail from an earlier midnight still pending is collected first: a row holds one tail.
    const stale = [...rolled].filter((name) => counters.get(name)?.tail_day);
    if (stale.length) {
      const r = await resolveTails(ctx, node, now, timeoutMs, { names: stale, limit: stale.length });
      result.charged += r.charged;
      result.tails += r.resolved;
      for (const uid of r.overQuota) overQuota.add(uid);
      prevRuntime = await ctx.db
        .selectFrom("node_runtime")
        .selectAll()
        .where("node_id", "=", nodeId)
        .executeTakeFirst();
      const fresh = await ctx.db
        .selectFrom("proxy_counters")
        .selectAll()
        .where("node_id", "=", nodeId)
        .where("proxy_name", "in", stale)
        .execute();
      for (const c of fresh) counters.set(c.proxy_name, c);
    }

    const credits: Credit[] = [];
    const counterRows: {
      node_id: number;
      proxy_name: string;
      tun_id: number;
      day: string;
      last_in: number;
      last_out: number;
      cur_conns: number;
      online: number;
      start_time: string;
      tail_day: string | null;
      tail_until: string | null;
      tail_in: number;
      tail_out: number;
      tail_fresh: number;
      updated_at: string;
    }[] = [];
    for (const { s, ref } of mine) {
      const c = counters.get(s.name);
      const credit = (d: string, i: number, o: number) => {
        if (i > 0 || o > 0) credits.push({ tun_id: ref.tun_id, uid: ref.uid, day: d, traffic_in: i, traffic_out: o });
      };
      if (!c) {
        credit(day, s.todayIn, s.todayOut);
      } else if (c.day === day) {
        if (reset(s, c)) credit(day, s.todayIn, s.todayOut);
        else credit(day, counterDelta(Number(c.last_in), s.todayIn), counterDelta(Number(c.last_out), s.todayOut));
      } else {
        credit(day, s.todayIn, s.todayOut);
      }
      // The tail a row carries: a new one for a rolled proxy, else whatever is pending.
      const tail = rolled.has(s.name)
        ? {
            tail_day: c?.day ?? null,
            tail_until: day,
            tail_in: Number(c?.last_in ?? 0),
            tail_out: Number(c?.last_out ?? 0),
            // A fresh entry's history holds only what came after the restart: all of it is new.
            tail_fresh: c && freshEntry(s, c) ? 1 : 0,
          }
        : {
            tail_day: c?.tail_day ?? null,
            tail_until: c?.tail_until ?? null,
            tail_in: Number(c?.tail_in ?? 0),
            tail_out: Number(c?.tail_out ?? 0),
            tail_fresh: c?.tail_fresh ?? 0,
          };
      const online = s.online ? 1 : 0;
      if (
        !c ||
        c.day !== day ||
        Number(c.last_in) !== s.todayIn ||
        Number(c.last_out) !== s.todayOut ||
        c.cur_conns !== s.curConns ||
        c.online !== online ||
        c.tun_id !== ref.tun_id ||
        c.start_time !== s.lastStartTime
      ) {
        counterRows.push({
          node_id: nodeId,
          proxy_name: s.name,
          tun_id: ref.tun_id,
          day,
          last_in: s.todayIn,
          last_out: s.todayOut,
          cur_conns: s.curConns,
          online,
          start_time: s.lastStartTime,
          ...tail,
          updated_at: now.toISOString(),
        });
      }
    }

    await ctx.db.transaction().execute(async (trx) => {
      await claimCounters(trx, nodeId, prevRuntime?.counters_version ?? null);
      const charged = await writeCredits(trx, nodeId, credits);
      for (const [uid, bytes] of charged) {
        result.charged += bytes;
        if ((await chargeTraffic(trx, uid, bytes)).overQuota) overQuota.add(uid);
      }
      for (const rows of chunks(counterRows)) {
        await trx
          .insertInto("proxy_counters")
          .values(rows)
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
      if (result.restarted) {
        // Stats of proxies frps no longer shows are gone with the restart: start them afresh.
        let stale = trx.deleteFrom("proxy_counters").where("node_id", "=", nodeId);
        if (stats.length)
          stale = stale.where(
            "proxy_name",
            "not in",
            stats.map((s) => s.name),
          );
        await stale.execute();
      }
      await reconcileStatus(trx, mine, tunnels, now, announce);
    });
  } else {
    await ctx.db.transaction().execute((trx) => reconcileStatus(trx, mine, tunnels, now, announce));
  }
  await recordHealth(ctx, node, NodeStatus.Online, now, null, info);
  if (!result.deferred) {
    const r = await resolveTails(ctx, node, now, timeoutMs, { limit: opts.tailBatch ?? TAIL_BATCH });
    result.charged += r.charged;
    result.tails += r.resolved;
    for (const uid of r.overQuota) overQuota.add(uid);
  }
  for (const uid of overQuota) ctx.events.emit("subscription.changed", { uid });
  for (const tunId of announce) {
    const t = tunnels.get(tunId);
    if (t) ctx.events.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
  }
  await scanRules(ctx, opts.rules ?? (await loadRules(ctx.db)), nodeId, node.subdomain_host, mine, tunnels);
  return result;
}

/**
 * Collects noted tails: reads each proxy's 7-day history (`/api/traffic/{name}`) and credits the
 * tail day (what came after the counters last seen, or everything for a fresh stats entry) and
 * the days between it and the day the tail was noted, in full. Written under the node's counters
 * version like a poll, so a tail is credited once. A history frps no longer has (restart) gives
 * nothing; a request that failed leaves the tail for the next poll.
 */
async function resolveTails(
  ctx: AppContext,
  node: NodeRow,
  now: Date,
  timeoutMs: number,
  opts: { limit: number; names?: string[] },
): Promise<{ resolved: number; charged: number; overQuota: Set<number> }> {
  const overQuota = new Set<number>();
  if (opts.limit <= 0) return { resolved: 0, charged: 0, overQuota };
  let q = ctx.db
    .selectFrom("proxy_counters")
    .selectAll()
    .where("node_id", "=", node.node_id)
    .where("tail_day", "is not", null);
  if (opts.names) q = q.where("proxy_name", "in", opts.names);
  const rows = await q.orderBy("proxy_name").limit(opts.limit).execute();
  if (!rows.length) return { resolved: 0, charged: 0, overQuota };
  const runtime = await ctx.db
    .selectFrom("node_runtime")
    .select("counters_version")
    .where("node_id", "=", node.node_id)
    .executeTakeFirst();
  const histories = await mapLimit(rows, HISTORY_CONCURRENCY, async (row) => {
    try {
      return { row, h: await fetchTraffic(node, row.proxy_name, timeoutMs), failed: false };
    } catch {
      return { row, h: null, failed: true };
    }
  });
  const today = shanghaiDate(now);
  const credits: Credit[] = [];
  const done: string[] = [];
  for (const { row, h, failed } of histories) {
    if (failed || !row.tail_day) continue;
    done.push(row.proxy_name);
    const ref = parseFrpProxyName(row.proxy_name);
    const k = daysBetween(row.tail_day, today);
    if (!h || !ref || k < 1 || k > 6) continue;
    const credit = (d: string, i: number, o: number) => {
      if (i > 0 || o > 0) credits.push({ tun_id: ref.tun_id, uid: ref.uid, day: d, traffic_in: i, traffic_out: o });
    };
    const fresh = row.tail_fresh === 1;
    const tail = (last: number, v: number) => (fresh ? v : counterDelta(last, v));
    credit(row.tail_day, tail(Number(row.tail_in), h.in[k] ?? 0), tail(Number(row.tail_out), h.out[k] ?? 0));
    const until = row.tail_until ?? today;
    for (let d = addDays(row.tail_day, 1); d < until; d = addDays(d, 1)) {
      const j = daysBetween(d, today);
      if (j >= 1 && j <= 6) credit(d, h.in[j] ?? 0, h.out[j] ?? 0);
    }
  }
  if (!done.length) return { resolved: 0, charged: 0, overQuota };
  let charged = 0;
  await ctx.db.transaction().execute(async (trx) => {
    await claimCounters(trx, node.node_id, runtime?.counters_version ?? null);
    for (const [uid, bytes] of await writeCredits(trx, node.node_id, credits)) {
      charged += bytes;
      if ((await chargeTraffic(trx, uid, bytes)).overQuota) overQuota.add(uid);
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
  return { resolved: done.length, charged, overQuota };
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

/** Adds the credits to per-day rows and tunnel totals; returns the bytes per customer. */
async function writeCredits(trx: Kysely<DB>, nodeId: number, credits: Credit[]): Promise<Map<number, number>> {
  const perUser = new Map<number, number>();
  const perTunnel = new Map<number, { i: number; o: number }>();
  for (const c of credits) {
    perUser.set(c.uid, (perUser.get(c.uid) ?? 0) + c.traffic_in + c.traffic_out);
    const t = perTunnel.get(c.tun_id) ?? { i: 0, o: 0 };
    t.i += c.traffic_in;
    t.o += c.traffic_out;
    perTunnel.set(c.tun_id, t);
  }
  for (const rows of chunks(credits)) {
    await trx
      .insertInto("tunnel_traffic")
      .values(rows.map((r) => ({ ...r, node_id: nodeId })))
      .onConflict((oc) =>
        oc.columns(["tun_id", "day"]).doUpdateSet({
          traffic_in: sql`tunnel_traffic.traffic_in + excluded.traffic_in`,
          traffic_out: sql`tunnel_traffic.traffic_out + excluded.traffic_out`,
        }),
      )
      .execute();
  }
  // One UPDATE per chunk; the byte counts are integers computed here, inlined as literals.
  for (const rows of chunks([...perTunnel])) {
    const caseOf = (pick: (v: { i: number; o: number }) => number) =>
      sql`case tun_id ${sql.join(
        rows.map(([id, v]) => sql`when ${sql.lit(id)} then ${sql.lit(pick(v))}`),
        sql` `,
      )} else 0 end`;
    await trx
      .updateTable("tunnels")
      .set({
        traffic_in: sql`traffic_in + ${caseOf((v) => v.i)}`,
        traffic_out: sql`traffic_out + ${caseOf((v) => v.o)}`,
      })
      .where(
        "tun_id",
        "in",
        rows.map(([id]) => id),
      )
      .execute();
  }
  return perUser;
}

type PolledTunnel = {
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

/**
 * Makes tunnel status follow what the dashboard shows (CloseProxy is best effort: an frps
 * restart may never send it): online proxies → connected, connected tunnels frps no longer has
 * online → offline. A blocked tunnel still online without a known session gets the dashboard's
 * client id as its run id, so that the next heartbeat of that session is refused.
 */
async function reconcileStatus(
  trx: Kysely<DB>,
  seen: { s: ProxyStat; ref: { tun_id: number } }[],
  tunnels: Map<number, PolledTunnel>,
  now: Date,
  announce: Set<number>,
): Promise<void> {
  const onlineIds = new Set<number>();
  for (const { s, ref } of seen) {
    if (!s.online) continue;
    onlineIds.add(ref.tun_id);
    const t = tunnels.get(ref.tun_id);
    if (!t) continue;
    const blocked = t.status === TunnelStatus.Locked || t.status === TunnelStatus.Deleted || t.enabled !== 1;
    if (t.status === TunnelStatus.Offline && t.enabled === 1) {
      await trx
        .updateTable("tunnels")
        .set({ status: TunnelStatus.Connected, last_online_at: now.toISOString(), run_id: t.run_id ?? s.clientId })
        .where("tun_id", "=", t.tun_id)
        .where("status", "=", TunnelStatus.Offline)
        .execute();
    } else if (blocked && !t.run_id && s.clientId) {
      await trx.updateTable("tunnels").set({ run_id: s.clientId }).where("tun_id", "=", t.tun_id).execute();
      announce.add(t.tun_id);
    }
  }
  const gone = [...tunnels.values()]
    .filter((t) => t.status === TunnelStatus.Connected && !onlineIds.has(t.tun_id))
    .map((t) => t.tun_id);
  for (const ids of chunks(gone)) {
    await trx
      .updateTable("tunnels")
      .set({ status: TunnelStatus.Offline, run_id: null })
      .where("tun_id", "in", ids)
      .where("status", "=", TunnelStatus.Connected)
      .execute();
  }
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
  /** nodes polled at once */
  concurrency?: number;
  /** lease holder name (default: this process) */
  holder?: string;
}

/**
 * Polls every node that is not off the shelf, each under its own lease row so that several
 * Burrow processes share the work and never poll one node twice in an interval.
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
  const results = await mapLimit(nodes, opts.concurrency ?? 8, async ({ node_id }) => {
    if (!(await acquireLease(ctx.db, `frp-poll:${node_id}`, leaseMs, opts.holder, now))) return null;
    try {
      return await pollNode(ctx, node_id, { ...opts, now, rules });
    } catch (err) {
      if (err instanceof PollConflict) ctx.log.info({ node_id }, err.message);
      else ctx.log.error({ err, node_id }, "frp poll failed");
      return null;
    }
  });
  return results.filter((r): r is PollResult => r !== null);
}

/** Deletes visitor-connection rows older than the retention (once an hour, one process). */
export async function pruneConnections(ctx: AppContext, now = new Date()): Promise<number> {
  if (!(await acquireLease(ctx.db, "frp-prune-conns", 3600_000, undefined, now))) return 0;
  const cutoff = new Date(now.getTime() - ctx.config.FRP_CONN_RETENTION_DAYS * DAY_MS).toISOString();
  const r = await ctx.db.deleteFrom("tunnel_conns").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export interface PollerHandle {
  stop(): Promise<void>;
}

/** Runs pollAll every interval (first run right away) until stopped. */
export function startPoller(ctx: AppContext, opts: { intervalMs: number }): PollerHandle {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    running = (async () => {
      try {
        await pollAll(ctx);
        await pruneConnections(ctx);
      } catch (err) {
        ctx.log.error({ err }, "frp poller tick failed");
      }
    })().finally(() => {
      running = null;
      if (!stopped) {
        timer = setTimeout(tick, opts.intervalMs);
        timer.unref();
      }
    });
  };
  timer = setTimeout(tick, 0);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
