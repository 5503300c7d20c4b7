import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import { chunks } from "../../shared/chunks";
import { DAY_MS, shanghaiDate } from "../../shared/time";
import { transact } from "../../shared/tx";
import { evaluateTopups } from "../autopay/topup";
import type { NodeRow } from "../nodes/nodes.table";
import { chargeTraffic } from "../subscriptions/quota";
import { addTunnelTraffic } from "../tunnels/sessions";
import { type CounterInput, type ProxySample, planCounters, type StoredCounter } from "./counters";
import type { ProxyStat, ServerInfo } from "./dashboard-client";
import { reviewKicks } from "./enforcement";
import type { NodeRuntimeTable, ProxyCounterTable } from "./frp.table";
import {
  type DashboardReading,
  HISTORY_CONCURRENCY,
  mapLimit,
  nodeRate,
  type PolledTunnel,
  type PollResult,
  type Seen,
} from "./poll-common";
import { claimCounters, holdNode } from "./poll-guards";
import { reconcileStatus } from "./poll-status";
import { resolveTails } from "./tails";

type ProxyCounterRow = Selectable<ProxyCounterTable>;

/** Histories read per poll to tell a restart from a rotation of frps's day. */
const SUSPECT_HISTORIES = 32;
/** A node seen rotating away from Shanghai midnight stays "skewed" this long (it rotates daily). */
const SKEW_MEMORY_MS = 2 * DAY_MS;

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

export const loadRuntime = (ctx: AppContext, nodeId: number) =>
  ctx.db.selectFrom("node_runtime").selectAll().where("node_id", "=", nodeId).executeTakeFirst();

/** A node whose frps was seen rotating away from Shanghai midnight in the last two days. */
const isSkewed = (at: string | null | undefined, now: Date): boolean =>
  !!at && now.getTime() - Date.parse(at) < SKEW_MEMORY_MS;

export interface Collect {
  now: Date;
  /** where histories are read (the dashboard over the network, or what the agent sent) */
  history: DashboardReading["history"];
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
export async function collectTraffic(ctx: AppContext, node: NodeRow, x: Collect): Promise<void> {
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
      const r = await resolveTails(ctx, node, now, x.history, {
        names: plan.staleTails,
        limit: plan.staleTails.length,
      });
      result.charged += r.charged;
      result.tails += r.resolved;
      runtime = await loadRuntime(ctx, node.node_id);
      counters = await loadCounters(ctx, node.node_id);
    }
    const suspects = await mapLimit(plan.suspects.slice(0, SUSPECT_HISTORIES), HISTORY_CONCURRENCY, async (name) => {
      const h = await x.history(name).catch(() => null);
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

  const charged = new Set<number>();
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
      charged.add(uid);
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
    await reconcileStatus(trx, node.node_id, x.mine, x.tunnels, now);
  });
  await reviewKicks(ctx, node, now, plan.open, x.tunnels);
  // Automatic traffic top-ups of the customers just charged, after the commit (a purchase takes
  // the customer's lock and must not hold the node's billing transaction); a failure here is
  // logged, never a failed poll, and the next charge evaluates again.
  if (charged.size)
    await evaluateTopups(ctx, charged, now).catch((err) =>
      ctx.log.error({ err, node_id: node.node_id }, "frp poll: automatic traffic top-up failed"),
    );
}
