import { parseFrpProxyName } from "@burrow/contract";
import type { AppContext } from "../../context";
import { chunks } from "../../shared/chunks";
import { addDays, DAY_MS, shanghaiDate } from "../../shared/time";
import { transact } from "../../shared/tx";
import type { NodeRow } from "../nodes/nodes.table";
import { chargeTraffic } from "../subscriptions/quota";
import { addTunnelTraffic } from "../tunnels/sessions";
import { allowedIncrease, type Credit, counterDelta, daysBetween } from "./counters";
import { type DashboardReading, HISTORY_CONCURRENCY, mapLimit, nodeRate } from "./poll-common";
import { claimCounters, holdNode } from "./poll-guards";

/**
 * Tails collected per node per poll. The first poll of a day only notes them, so that it costs
 * what any poll costs; each poll then reads this many histories (1,000 proxies: ten polls).
 */
export const TAIL_BATCH = 100;

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
export async function resolveTails(
  ctx: AppContext,
  node: NodeRow,
  now: Date,
  history: DashboardReading["history"],
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
      return { row, h: await history(row.proxy_name), failed: false };
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
