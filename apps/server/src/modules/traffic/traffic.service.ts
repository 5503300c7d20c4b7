/** A customer's traffic: sums, rows and a tunnel's chart. */
import type {
  Paged,
  TunnelTrafficChart,
  UserTraffic,
  UserTrafficQuery,
  UserTrafficRow,
  UserTrafficRowsQuery,
} from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import { oneOf } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import { countRows, pageOf } from "../../shared/paging";
import { addDays, shanghaiDate } from "../../shared/time";
import { getPlanLimits } from "../subscriptions/quota";
import { dateRange, fillDays } from "./ranges";
import { DEFAULT_DAYS, type TrafficKey, type TrafficSums } from "./traffic-cache";

const sumIn = sql<string | number>`sum(traffic_in)`;
const sumOut = sql<string | number>`sum(traffic_out)`;

/** A customer's traffic rows over a range, optionally of one tunnel (checked to be theirs by the caller). */
function trafficRows(db: Kysely<DB>, { uid, start, end, tun_id }: TrafficKey) {
  let base = db
    .selectFrom("tunnel_traffic")
    .where("tunnel_traffic.uid", "=", uid)
    .where("day", ">=", start)
    .where("day", "<=", end);
  if (tun_id) base = base.where("tunnel_traffic.tun_id", "=", tun_id);
  return base;
}

/**
 * A customer's traffic rows over a range (default: the last 30 days), optionally one of
 * their tunnels: the range checked, the tunnel checked to be theirs (404 otherwise). Only their
 * own tunnels, deleted ones' history included. /user/traffic and /user/traffic/rows share it.
 */
async function customerTraffic(ctx: AppContext, uid: number, q: UserTrafficQuery): Promise<TrafficKey> {
  const [start, end] = dateRange(q, DEFAULT_DAYS);
  if (q.tun_id) {
    const own = await ctx.db
      .selectFrom("tunnels")
      .select("tun_id")
      .where("tun_id", "=", q.tun_id)
      .where("uid", "=", uid)
      .executeTakeFirst();
    if (!own) throw notFound("隧道");
  }
  return { uid, start, end, ...(q.tun_id ? { tun_id: q.tun_id } : {}) };
}

/** /user/traffic's sums: per day and per tunnel (of the days and tunnels with rows). Kept by TrafficCache. */
export async function trafficSums(db: Kysely<DB>, key: TrafficKey): Promise<TrafficSums> {
  const base = trafficRows(db, key);
  const [days, tunnels] = await Promise.all([
    base
      .select(["day", sumIn.as("traffic_in"), sumOut.as("traffic_out"), sql<string | number>`count(*)`.as("n")])
      .groupBy("day")
      .execute(),
    base
      .select(["tun_id", sumIn.as("traffic_in"), sumOut.as("traffic_out")])
      .groupBy("tun_id")
      .orderBy("tun_id")
      .execute(),
  ]);
  const bytes = (r: { traffic_in: unknown; traffic_out: unknown }) => ({
    traffic_in: Number(r.traffic_in),
    traffic_out: Number(r.traffic_out),
  });
  return {
    days: days.map((d) => ({ day: d.day, ...bytes(d) })),
    tunnels: tunnels.map((t) => ({ tun_id: t.tun_id, ...bytes(t) })),
    rows: days.reduce((n, d) => n + Number(d.n), 0),
  };
}

/**
 * A customer's traffic over a range: per day and per tunnel (the last 30 days from memory until
 * the poller adds traffic: TrafficCache), with the tunnels' names and statuses and the quota of
 * their plan and packs (used and left) read live. Per tunnel and day is userTrafficRows, paged:
 * every row of 100 tunnels over 30 days made this answer 260 kB (docs/performance.md).
 */
export async function userTraffic(ctx: AppContext, uid: number, q: UserTrafficQuery): Promise<UserTraffic> {
  const key = await customerTraffic(ctx, uid, q);
  const sums = await ctx.traffic.get(key);
  const ids = sums.tunnels.map((t) => t.tun_id);
  const [named, limits] = await Promise.all([
    // A tunnel's rows carry its owner, which never changes: the uid only confirms it.
    ids.length
      ? ctx.db
          .selectFrom("tunnels")
          .select(["tun_id", "tun_name", "status"])
          .where("uid", "=", uid)
          .where(oneOf(ctx.db, "tun_id", ids))
          .execute()
      : [],
    getPlanLimits(ctx.db, uid),
  ]);
  const tunnel = new Map(named.map((t) => [t.tun_id, t]));
  const total = limits?.traffic_quota ?? 0;
  const used = limits?.traffic_used ?? 0;
  return {
    start_date: key.start,
    end_date: key.end,
    quota: {
      plan_name: limits?.plan_name ?? null,
      total,
      used,
      left: Math.max(0, total - used),
      usable: Boolean(limits?.usable && (!limits.end_at || limits.end_at > new Date().toISOString())),
      end_at: limits?.end_at ?? null,
    },
    days: fillDays(key.start, key.end, sums.days),
    tunnels: sums.tunnels.flatMap((t) => {
      const row = tunnel.get(t.tun_id);
      return row
        ? [
            {
              tun_id: t.tun_id,
              traffic_in: t.traffic_in,
              traffic_out: t.traffic_out,
              tun_name: row.tun_name,
              status: row.status,
            },
          ]
        : [];
    }),
  };
}

/**
 * A customer's traffic per tunnel and day over a range (only days with traffic), newest day first,
 * then newest tunnel first: the order the (uid, day, tun_id, …) index gives walked backwards, so
 * the walk stops at the page with nothing sorted. The last 30 days' total is the count
 * TrafficCache keeps with their sums.
 */
export async function userTrafficRows(
  ctx: AppContext,
  uid: number,
  q: UserTrafficRowsQuery,
): Promise<Paged<UserTrafficRow>> {
  const key = await customerTraffic(ctx, uid, q);
  const base = trafficRows(ctx.db, key);
  return pageOf(
    q.page,
    q.size,
    // The page's rows first, then their tunnels' names: OFFSET skips bare rows, not joined ones.
    async (limit, offset) =>
      (
        await ctx.db
          .selectFrom(
            base
              .select(["tun_id", "day", "traffic_in", "traffic_out"])
              .orderBy("day", "desc")
              .orderBy("tun_id", "desc")
              .limit(limit)
              .offset(offset)
              .as("page"),
          )
          .leftJoin("tunnels", "tunnels.tun_id", "page.tun_id")
          .select(["page.tun_id", "tunnels.tun_name", "page.day", "page.traffic_in", "page.traffic_out"])
          .orderBy("page.day", "desc")
          .orderBy("page.tun_id", "desc")
          .execute()
      ).map((r) => ({
        tun_id: r.tun_id,
        ...(r.tun_name === null ? {} : { tun_name: r.tun_name }),
        date: r.day,
        traffic_in: Number(r.traffic_in),
        traffic_out: Number(r.traffic_out),
      })),
    async () => (ctx.traffic.keeps(key) ? (await ctx.traffic.get(key)).rows : countRows(base)),
  );
}

/** Chart data of one of the customer's tunnels: the last `days` days. */
export async function tunnelTrafficChart(
  ctx: AppContext,
  uid: number,
  tunId: number,
  days: number,
): Promise<TunnelTrafficChart> {
  const own = await ctx.db
    .selectFrom("tunnels")
    .select("tun_id")
    .where("tun_id", "=", tunId)
    .where("uid", "=", uid)
    .where("status", "<>", -1)
    .executeTakeFirst();
  if (!own) throw notFound("隧道");
  const end = shanghaiDate();
  const start = addDays(end, -(days - 1));
  const rows = await ctx.db
    .selectFrom("tunnel_traffic")
    .select(["day", "traffic_in", "traffic_out"])
    .where("tun_id", "=", tunId)
    .where("day", ">=", start)
    .where("day", "<=", end)
    .execute();
  return { tun_id: tunId, days: fillDays(start, end, rows) };
}
