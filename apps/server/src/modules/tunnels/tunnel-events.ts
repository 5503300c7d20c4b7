import type { Paged, TunnelEventFix, TunnelEventKind, TunnelEventQuery, TunnelEventRow } from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import { pageOf } from "../../shared/paging";
import { DAY_MS, shanghaiWallClock } from "../../shared/time";
import { findOwnTunnel } from "./tunnels.repository";

/*
 * 连接诊断 (issue 33 §8): the decisions the console made about a tunnel, one row per tunnel, kind,
 * reason and minute with a count. tunnels owns tunnel_events; the frp write-behind writer hands its
 * batches to recordTunnelEvents (off the plugin's hot path), operators' locks and the customer's
 * 强制下线 write theirs in their own transactions.
 */

/** How long rows are kept, and how many at most per tunnel (a flood of distinct reasons stays bounded). */
export const EVENT_DAYS = 7;
export const EVENTS_PER_TUNNEL = 2000;
/** A reason longer than this is cut (the unique key indexes it). */
const REASON_MAX = 300;

/** One batch row: `count` identical events between first_at and last_at, all within one minute. */
export interface TunnelEventInput {
  /** 0: about the owner's sessions on the node (Login, a refused heartbeat) */
  tun_id: number;
  uid: number;
  node_id: number;
  kind: TunnelEventKind;
  /** for `proxy_held`: the holder's run id, turned into the reason here (holderReasons) */
  reason: string;
  count: number;
  first_at: string;
  last_at: string;
}

/** The minute an event collapses into (ISO, seconds cut). */
export const eventMinute = (iso: string): string => `${iso.slice(0, 16)}:00.000Z`;

/** What a Login row says of the client: its version and address, read back for holderReasons. */
export const loginReason = (version: string, ip: string): string => `登录成功（frpc ${version || "?"}，${ip || "?"}）`;
const LOGIN_RE = /^登录成功（frpc (.+)，(.+)）$/;

const COLUMNS = ["tun_id", "uid", "node_id", "kind", "reason", "minute", "count", "first_at", "last_at"] as const;
const TYPES = ["integer", "integer", "integer", "text", "text", "text", "integer", "text", "text"];

/**
 * "被另一会话占用：…" for each `proxy_held` row: the holder's run id, since when it holds the proxy
 * (the hold's last NewProxy), and its frpc version and address (the owner's last Login on the node
 * before that). Read from the tunnel's own row and its Login rows, at write time, off the hot path.
 */
async function holderReasons(db: Kysely<DB>, rows: TunnelEventInput[]): Promise<void> {
  const held = rows.filter((r) => r.kind === "proxy_held");
  if (!held.length) return;
  const tunnels = await db
    .selectFrom("tunnels")
    .select(["tun_id", "tun_name", "last_online_at"])
    .where(
      "tun_id",
      "in",
      held.map((r) => r.tun_id),
    )
    .execute();
  const byId = new Map(tunnels.map((t) => [t.tun_id, t]));
  for (const r of held) {
    const t = byId.get(r.tun_id);
    const since = t?.last_online_at ?? r.first_at;
    // The Login may be in this very batch, not written yet (the writer flushes them together).
    const inBatch = rows
      .filter((l) => l.kind === "login_ok" && l.uid === r.uid && l.node_id === r.node_id && l.first_at <= since)
      .sort((a, b) => (a.first_at < b.first_at ? 1 : -1))[0];
    const login =
      inBatch ??
      (await db
        .selectFrom("tunnel_events")
        .select("reason")
        .where("tun_id", "=", 0)
        .where("uid", "=", r.uid)
        .where("node_id", "=", r.node_id)
        .where("kind", "=", "login_ok")
        .where("first_at", "<=", since)
        .orderBy("first_at", "desc")
        .limit(1)
        .executeTakeFirst());
    const m = login ? LOGIN_RE.exec(login.reason) : null;
    const clock = shanghaiWallClock(since).toISOString().slice(11, 19);
    const who = [`会话 ${r.reason} 自 ${clock}`, ...(m ? [m[2], `frpc ${m[1]}`] : [])].join("，");
    r.reason = `隧道 ${t?.tun_name ?? r.tun_id} 被另一会话占用：${who}（frps 拒绝新连接 proxy already exists；如该会话已失效，可强制下线）`;
  }
}

/**
 * Adds a batch (rows already collapsed by the caller), each onto its minute's row: one statement,
 * the rows as one JSON parameter (cheap to build for any batch size), upserted on the key.
 */
export async function recordTunnelEvents(db: Kysely<DB>, input: TunnelEventInput[]): Promise<void> {
  if (!input.length) return;
  await holderReasons(db, input);
  // The same key twice in one batch (two holder run ids may resolve alike) is one row: PostgreSQL
  // refuses an upsert that touches a row twice.
  const merged = new Map<string, (string | number)[]>();
  for (const r of input) {
    const reason = r.reason.slice(0, REASON_MAX);
    const minute = eventMinute(r.first_at);
    const key = `${r.tun_id} ${r.uid} ${r.node_id} ${r.kind} ${minute} ${reason}`;
    const had = merged.get(key);
    if (had) {
      had[6] = Number(had[6]) + r.count;
      if (r.last_at > String(had[8])) had[8] = r.last_at;
      if (r.first_at < String(had[7])) had[7] = r.first_at;
    } else merged.set(key, [r.tun_id, r.uid, r.node_id, r.kind, reason, minute, r.count, r.first_at, r.last_at]);
  }
  const json = JSON.stringify([...merged.values()]);
  const pg = isPostgres(db);
  const fields = TYPES.map((type, i) => (pg ? `(e->>${i})::${type}` : `e.value->>${i}`)).join(", ");
  const from = pg ? sql`json_array_elements(${json}::json)` : sql`json_each(${json})`;
  // SQLite needs a WHERE for its parser to take ON CONFLICT after INSERT … SELECT.
  await sql`insert into tunnel_events (${sql.raw(COLUMNS.join(", "))})
    select ${sql.raw(fields)} from ${from} as e where true
    on conflict (tun_id, uid, node_id, kind, reason, minute) do update set
      count = tunnel_events.count + excluded.count,
      first_at = case when excluded.first_at < tunnel_events.first_at then excluded.first_at else tunnel_events.first_at end,
      last_at = case when excluded.last_at > tunnel_events.last_at then excluded.last_at else tunnel_events.last_at end`.execute(
    db,
  );
}

/** How many `kind` events of the tunnel since `since` (ISO), counting collapsed rows in full. */
export async function countTunnelEvents(
  db: Kysely<DB>,
  tunId: number,
  kind: TunnelEventKind,
  since: string,
): Promise<number> {
  const r = await db
    .selectFrom("tunnel_events")
    .select(sql<number>`coalesce(sum(count), 0)`.as("n"))
    .where("tun_id", "=", tunId)
    .where("kind", "=", kind)
    .where("last_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The fix offered for a row: download the config again, buy traffic, free the session, appeal. */
export function eventFix(kind: string, reason: string): TunnelEventFix | null {
  if (kind === "proxy_held") return "free_session";
  if (kind === "locked" || reason.includes("已被锁定")) return "appeal";
  if (kind === "login_ok" || kind === "proxy_ok" || kind === "unlocked" || kind === "session_freed") return null;
  if (/重新下载配置|访问令牌|缺少访问令牌|控制台生成的|与控制台不一致/.test(reason)) return "config";
  // Not every mention of traffic: "流量已结算，可以重新连接" (a lifted kick) needs nothing.
  if (/流量已用尽|剩余流量|套餐已过期|没有生效中的套餐/.test(reason)) return "traffic";
  return null;
}

/**
 * A tunnel's rows of the last 7 days, newest first: its own and its owner's session rows on its
 * node. Another customer's tunnel (or a deleted one) is 404.
 */
export async function listTunnelEvents(
  ctx: AppContext,
  uid: number,
  tunId: number,
  q: TunnelEventQuery,
): Promise<Paged<TunnelEventRow>> {
  const t = await findOwnTunnel(ctx.db, uid, tunId);
  if (!t) throw notFound("隧道");
  const since = eventMinute(new Date(Date.now() - EVENT_DAYS * DAY_MS).toISOString());
  const base = ctx.db
    .selectFrom("tunnel_events")
    .where("minute", ">=", since)
    .where((eb) =>
      eb.or([
        eb("tun_id", "=", tunId),
        eb.and([eb("tun_id", "=", 0), eb("uid", "=", uid), eb("node_id", "=", t.node_id)]),
      ]),
    );
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (
        await base
          .select(["id", "kind", "reason", "count", "first_at", "last_at"])
          .orderBy("last_at", "desc")
          .orderBy("id", "desc")
          .limit(limit)
          .offset(offset)
          .execute()
      ).map((r) => ({
        id: r.id,
        kind: r.kind as TunnelEventKind,
        reason: r.reason,
        fix: eventFix(r.kind, r.reason),
        count: r.count,
        first_at: r.first_at,
        last_at: r.last_at,
      })),
    async () => (await base.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n,
  );
}

/**
 * The pruning job: rows older than 7 days go, and of a tunnel (or a customer's session rows on a
 * node) with more than EVENTS_PER_TUNNEL rows, the oldest beyond that.
 */
export async function pruneTunnelEvents(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = eventMinute(new Date(now.getTime() - EVENT_DAYS * DAY_MS).toISOString());
  const old = await ctx.db.deleteFrom("tunnel_events").where("minute", "<", cutoff).executeTakeFirst();
  let removed = Number(old.numDeletedRows);
  const crowded = await ctx.db
    .selectFrom("tunnel_events")
    .select(["tun_id", "uid", "node_id"])
    .groupBy(["tun_id", "uid", "node_id"])
    .having(sql<number>`count(*)`, ">", EVENTS_PER_TUNNEL)
    .execute();
  for (const g of crowded) {
    const edge = await ctx.db
      .selectFrom("tunnel_events")
      .where("tun_id", "=", g.tun_id)
      .where("uid", "=", g.uid)
      .where("node_id", "=", g.node_id)
      .select("id")
      .orderBy("id", "desc")
      .offset(EVENTS_PER_TUNNEL - 1)
      .limit(1)
      .executeTakeFirst();
    if (!edge) continue;
    const r = await ctx.db
      .deleteFrom("tunnel_events")
      .where("tun_id", "=", g.tun_id)
      .where("uid", "=", g.uid)
      .where("node_id", "=", g.node_id)
      .where("id", "<", edge.id)
      .executeTakeFirst();
    removed += Number(r.numDeletedRows);
  }
  return removed;
}
