/** Operators' live view: recent visitor connections and the proxies live now. */
import type { ConnListQuery, ConnOverview, ConnRow, LiveProxyRow, Paged } from "@burrow/contract";
import { TunnelStatus } from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { containsText } from "../../db/dialect";
import { countRows, pageOf } from "../../shared/paging";

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
