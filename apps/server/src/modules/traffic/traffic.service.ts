import type {
  ConnListQuery,
  ConnOverview,
  ConnRow,
  Flow,
  FlowQuery,
  LiveProxyRow,
  Paged,
  TrafficDay,
  TunnelTrafficChart,
  UserTraffic,
  UserTrafficQuery,
  UserTrafficRow,
  UserTrafficRowsQuery,
} from "@burrow/contract";
import { TunnelStatus } from "@burrow/contract";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { AppContext } from "../../context";
import { containsText, oneOf } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { invalid, notFound } from "../../shared/errors";
import { largeMemo, type Read } from "../../shared/large-memo";
import { countRows, pageOf } from "../../shared/paging";
import { addDays, shanghaiDate } from "../../shared/time";
import { getPlanLimits } from "../subscriptions/quota";
import { shownPhone } from "../users/users.presenter";
import { DEFAULT_DAYS, type TrafficKey, type TrafficSums } from "./traffic-cache";

/** Longest range a traffic query may span, in days. */
const MAX_RANGE_DAYS = 366;

/** Resolves an optional date range ending today (Asia/Shanghai) and checks it. */
export function dateRange(q: { start_date?: string; end_date?: string }, defaultDays: number): [string, string] {
  const end = q.end_date ?? shanghaiDate();
  const start = q.start_date ?? addDays(end, -(defaultDays - 1));
  if (start > end) throw invalid("start_date", "开始日期不能晚于结束日期");
  if (addDays(start, MAX_RANGE_DAYS) <= end) throw invalid("start_date", `日期范围最多 ${MAX_RANGE_DAYS} 天`);
  return [start, end];
}

/** Every day of [start, end] with the given sums, zeros where nothing flowed. */
function fillDays(
  start: string,
  end: string,
  rows: { day: string; traffic_in: unknown; traffic_out: unknown }[],
): TrafficDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const out: TrafficDay[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) {
    const r = byDay.get(d);
    out.push({ date: d, traffic_in: Number(r?.traffic_in ?? 0), traffic_out: Number(r?.traffic_out ?? 0) });
  }
  return out;
}

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

/** The connections a list asks for; its count reads them alone (the joins add names, not rows). */
function filterConns(ctx: AppContext, q: ConnListQuery) {
  let sel = ctx.db.selectFrom("tunnel_conns as c");
  if (q.tun_id) sel = sel.where("c.tun_id", "=", q.tun_id);
  if (q.uid) sel = sel.where("c.uid", "=", q.uid);
  if (q.node_id) sel = sel.where("c.node_id", "=", q.node_id);
  if (q.remote_addr) sel = sel.where(containsText(ctx.db, "c.remote_addr", q.remote_addr));
  return sel;
}

/** Recent visitor connections (newest first), filtered by tunnel, owner, node and visitor address. */
export function listConns(ctx: AppContext, q: ConnListQuery): Promise<Paged<ConnRow>> {
  const base = filterConns(ctx, q);
  const sel = base.leftJoin("tunnels", "tunnels.tun_id", "c.tun_id").leftJoin("nodes", "nodes.node_id", "c.node_id");
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (
        await sel
          .select([
            "c.id",
            "c.tun_id",
            "c.uid",
            "c.node_id",
            "c.proxy_type",
            "c.remote_addr",
            "c.conn_count",
            "c.created_at",
            "c.last_at",
            "tunnels.tun_name",
            "nodes.name as node_name",
          ])
          .orderBy("c.id", "desc")
          .limit(limit)
          .offset(offset)
          .execute()
      ).map((r) => ({
        ...r,
        tun_name: r.tun_name ?? "",
        node_name: r.node_name ?? `#${r.node_id}`,
        last_at: r.last_at ?? r.created_at,
      })),
    () => countRows(base, ctx.db),
  );
}

/**
 * What is live now, busiest first: Burrow's connected tunnels (with the counters of the last poll)
 * and any other proxy the last poll saw online or with open connections.
 */
export async function liveProxies(
  ctx: AppContext,
  q: { tun_id?: number; uid?: number; node_id?: number },
  limit = 100,
): Promise<LiveProxyRow[]> {
  // Burrow's tunnels are live when their status says connected: the state the plugin and the
  // poller keep, which the tunnel lists show and the node's load counts (issue 35 §8: listing
  // only proxies with open visitor connections left a connected, idle tunnel out).
  let connected = ctx.db
    .selectFrom("tunnels")
    .leftJoin("proxy_counters as pc", (join) =>
      join.onRef("pc.tun_id", "=", "tunnels.tun_id").onRef("pc.node_id", "=", "tunnels.node_id"),
    )
    .leftJoin("nodes", "nodes.node_id", "tunnels.node_id")
    .where("tunnels.status", "=", TunnelStatus.Connected);
  if (q.tun_id) connected = connected.where("tunnels.tun_id", "=", q.tun_id);
  if (q.uid) connected = connected.where("tunnels.uid", "=", q.uid);
  if (q.node_id) connected = connected.where("tunnels.node_id", "=", q.node_id);
  // Any other proxy the last poll saw online (not one of Burrow's tunnels) or with open
  // connections (a tunnel that has just gone offline): the rest of what the node's load counts.
  let others = ctx.db
    .selectFrom("proxy_counters as pc")
    .leftJoin("tunnels", "tunnels.tun_id", "pc.tun_id")
    .leftJoin("nodes", "nodes.node_id", "pc.node_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("tunnels.tun_id", "is", null), eb("pc.online", "=", 1)]),
        eb.and([
          sql<boolean>`pc.cur_conns > 0`,
          eb.or([
            eb("tunnels.tun_id", "is", null),
            eb("tunnels.status", "<>", TunnelStatus.Connected),
            eb("tunnels.node_id", "<>", eb.ref("pc.node_id")),
          ]),
        ]),
      ]),
    );
  if (q.tun_id) others = others.where("pc.tun_id", "=", q.tun_id);
  if (q.uid) others = others.where("tunnels.uid", "=", q.uid);
  if (q.node_id) others = others.where("pc.node_id", "=", q.node_id);
  // A literal, not a parameter: with no parameter left, PostgreSQL plans the statement once.
  const cap = sql.lit(Math.trunc(limit));
  const [tunnels, rest] = await Promise.all([
    connected
      .select([
        "tunnels.tun_id",
        "tunnels.uid",
        "tunnels.tun_name",
        "tunnels.node_id",
        "tunnels.last_online_at",
        "tunnels.created_at",
        "pc.proxy_name",
        "pc.cur_conns",
        "pc.last_in",
        "pc.last_out",
        "pc.updated_at",
        "nodes.name as node_name",
      ])
      .orderBy("pc.cur_conns", "desc")
      .orderBy("tunnels.tun_id")
      .limit(cap)
      .execute(),
    others
      .select([
        "pc.node_id",
        "pc.proxy_name",
        "pc.tun_id",
        "pc.online",
        "pc.cur_conns",
        "pc.last_in",
        "pc.last_out",
        "pc.updated_at",
        "tunnels.tun_name",
        "tunnels.uid",
        "tunnels.status",
        "nodes.name as node_name",
      ])
      .orderBy("pc.cur_conns", "desc")
      .limit(cap)
      .execute(),
  ]);
  const rows: LiveProxyRow[] = [
    ...tunnels.map((r) => ({
      node_id: r.node_id,
      node_name: r.node_name ?? `#${r.node_id}`,
      // Before the first poll sees it, the name frpc registers it under (frpc-config.ts).
      proxy_name: r.proxy_name ?? `u_${r.uid}.t_${r.tun_id}`,
      tun_id: r.tun_id,
      tun_name: r.tun_name,
      uid: r.uid,
      online: true,
      cur_conns: r.cur_conns ?? 0,
      today_in: Number(r.last_in ?? 0),
      today_out: Number(r.last_out ?? 0),
      updated_at: r.updated_at ?? r.last_online_at ?? r.created_at,
    })),
    ...rest.map((r) => ({
      node_id: r.node_id,
      node_name: r.node_name ?? `#${r.node_id}`,
      proxy_name: r.proxy_name,
      tun_id: r.tun_id,
      tun_name: r.tun_name ?? null,
      uid: r.uid ?? null,
      // One of Burrow's tunnels is online by its status (here: not connected), a foreign proxy by the poll.
      online: r.status == null ? r.online === 1 : false,
      cur_conns: r.cur_conns,
      today_in: Number(r.last_in),
      today_out: Number(r.last_out),
      updated_at: r.updated_at,
    })),
  ];
  return rows.sort((a, b) => b.cur_conns - a.cur_conns || a.node_id - b.node_id).slice(0, limit);
}

/** GET /super/tun/conns: recent connections plus live per-proxy connection counts. */
export async function connOverview(ctx: AppContext, q: ConnListQuery): Promise<ConnOverview> {
  const [page, live] = await Promise.all([listConns(ctx, q), liveProxies(ctx, q)]);
  return { ...page, live };
}

/**
 * Traffic over a range by day, by node and by user (heaviest first, paged). Over many rows (a week
 * of every tunnel) the answer may be a few seconds old: shared/large-memo.ts.
 */
export async function flow(ctx: AppContext, q: FlowQuery): Promise<Flow> {
  const [start, end] = dateRange(q, 7);
  const key = `flow:${JSON.stringify([start, end, q.node_id, q.uid, q.page, q.size])}`;
  const r = await largeMemo(
    ctx.db,
    key,
    (read) => computeFlow(ctx, q, start, end, read),
    (f) => f.rows,
  );
  return r.flow;
}

async function computeFlow(ctx: AppContext, q: FlowQuery, start: string, end: string, read: Read) {
  let base = ctx.db.selectFrom("tunnel_traffic").where("day", ">=", start).where("day", "<=", end);
  if (q.node_id) base = base.where("tunnel_traffic.node_id", "=", q.node_id);
  if (q.uid) base = base.where("tunnel_traffic.uid", "=", q.uid);
  // The day and node sums in one pass over the rows (days × nodes groups, added up here): a
  // customer's week was read four times, once for each sum and once more for the count.
  const [cells, users] = await Promise.all([
    read(
      base
        .leftJoin("nodes", "nodes.node_id", "tunnel_traffic.node_id")
        .select([
          "day",
          "tunnel_traffic.node_id",
          "nodes.name",
          sql<string | number>`sum(tunnel_traffic.traffic_in)`.as("traffic_in"),
          sql<string | number>`sum(tunnel_traffic.traffic_out)`.as("traffic_out"),
          sql<string | number>`count(*)`.as("n"),
        ])
        // One customer's phone with their rows: a statement fewer (each costs a round trip).
        .$if(Boolean(q.uid), (cq) =>
          cq.select((eb) =>
            eb
              .selectFrom("users")
              .select("users.phone")
              .where("users.uid", "=", q.uid as number)
              .as("phone"),
          ),
        )
        .groupBy(["day", "tunnel_traffic.node_id", "nodes.name"])
        .compile(),
    ),
    q.uid ? undefined : flowUsers(base, q, read),
  ]);
  const days = new Map<string, { day: string; traffic_in: number; traffic_out: number }>();
  const nodes = new Map<number, { node_id: number; node_name: string; traffic_in: number; traffic_out: number }>();
  let rows = 0;
  for (const c of cells) {
    rows += Number(c.n);
    const d = days.get(c.day) ?? { day: c.day, traffic_in: 0, traffic_out: 0 };
    const n = nodes.get(c.node_id) ?? {
      node_id: c.node_id,
      node_name: c.name ?? `#${c.node_id}`,
      traffic_in: 0,
      traffic_out: 0,
    };
    for (const sum of [d, n]) {
      sum.traffic_in += Number(c.traffic_in);
      sum.traffic_out += Number(c.traffic_out);
    }
    days.set(c.day, d);
    nodes.set(c.node_id, n);
  }
  const dayRows = fillDays(start, end, [...days.values()]);
  const total_in = dayRows.reduce((n, d) => n + d.traffic_in, 0);
  const total_out = dayRows.reduce((n, d) => n + d.traffic_out, 0);
  const flow: Flow = {
    start_date: start,
    end_date: end,
    total_in,
    total_out,
    days: dayRows,
    nodes: [...nodes.values()].sort((a, b) => a.node_id - b.node_id),
    // One customer's row is the totals: no second pass, no count.
    users:
      users ??
      oneFlowUser(
        q.uid as number,
        (cells[0] as { phone?: string | null } | undefined)?.phone,
        rows > 0 ? { traffic_in: total_in, traffic_out: total_out } : null,
        q,
      ),
  };
  return { flow, rows };
}

type FlowUsers = Flow["users"];

/** Users by traffic over the range, heaviest first, paged. */
async function flowUsers(
  base: SelectQueryBuilder<DB, "tunnel_traffic", object>,
  q: FlowQuery,
  read: Read,
): Promise<FlowUsers> {
  const users = await pageOf(
    q.page,
    q.size,
    (limit, offset) =>
      read(
        base
          .leftJoin("users", "users.uid", "tunnel_traffic.uid")
          .select([
            "tunnel_traffic.uid",
            "users.phone",
            sql<string | number>`sum(tunnel_traffic.traffic_in)`.as("traffic_in"),
            sql<string | number>`sum(tunnel_traffic.traffic_out)`.as("traffic_out"),
          ])
          .groupBy(["tunnel_traffic.uid", "users.phone"])
          .orderBy(sql`sum(tunnel_traffic.traffic_in + tunnel_traffic.traffic_out)`, "desc")
          .orderBy("tunnel_traffic.uid")
          .limit(limit)
          .offset(offset)
          .compile(),
      ),
    async () => (await read(base.select((eb) => eb.fn.count("tunnel_traffic.uid").distinct().as("n")).compile()))[0].n,
  );
  return {
    ...users,
    list: users.list.map((r) => ({
      uid: r.uid,
      phone: shownPhone(r.phone),
      traffic_in: Number(r.traffic_in),
      traffic_out: Number(r.traffic_out),
    })),
  };
}

/** The users page of one customer's flow: their row (the range's totals) if they had traffic. */
function oneFlowUser(
  uid: number,
  phone: string | null | undefined,
  sums: { traffic_in: number; traffic_out: number } | null,
  q: FlowQuery,
): FlowUsers {
  const page = { total: sums ? 1 : 0, page: q.page, size: q.size };
  if (!sums || q.page > 1) return { ...page, list: [] };
  return { ...page, list: [{ uid, phone: shownPhone(phone), ...sums }] };
}
