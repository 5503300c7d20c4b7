/** Operators' traffic flow over a range: by day, by node and by user. */
import type { Flow, FlowQuery } from "@burrow/contract";
import { type SelectQueryBuilder, sql } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { largeMemo, type Read } from "../../shared/large-memo";
import { pageOf } from "../../shared/paging";
import { shownPhone } from "../users/users.presenter";
import { dateRange, fillDays } from "./ranges";

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
