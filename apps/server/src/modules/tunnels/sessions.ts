import { TunnelStatus } from "@burrow/contract";
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { chunks } from "../../shared/chunks";
import { recordEvents } from "../../shared/outbox";
import type { Tx } from "../../shared/tx";
import { mergeCredits } from "./port-range";
import { releaseDeletedDomains } from "./tunnels.repository";

/*
 * What frps reports about tunnels, written by their owner for the frp module (plugin write-behind
 * and poller): sessions (status, run id), traffic and visitor connections. Writes that only record
 * what the reporting process already knows (a session opened or closed, bytes counted) are not
 * announced; a hold released or taken changes what every process decides, and is.
 */

const STATUS_EVENT_COLUMNS = ["tun_id", "uid", "node_id", "tun_name", "enabled"] as const;
type StatusEventRow = { tun_id: number; uid: number; node_id: number; tun_name: string; enabled: number };

/**
 * The tunnels of `ids` whose status the coming update changes (`when`), read under a row lock on
 * PostgreSQL so that no other session changes them before it: the set the events name.
 */
async function transitioning(
  trx: Tx,
  ids: number[],
  when: (eb: ExpressionBuilder<DB, "tunnels">) => Expression<SqlBool>,
): Promise<StatusEventRow[]> {
  const q = trx.selectFrom("tunnels").select(STATUS_EVENT_COLUMNS).where("tun_id", "in", ids).where(when);
  return (isPostgres(trx) ? q.forUpdate() : q).execute();
}

/**
 * "tunnel.online" / "tunnel.offline" in the status change's transaction (handlers debounce;
 * shared/outbox.ts). No wake-up: these writes run on the frp hot path and stay quiet on the change
 * bus; the dispatch job delivers them within its interval. An offline one says why as far as the
 * row tells (turned off, else the client went away; the uptime history refines it, docs/uptime.md).
 */
async function recordStatusEvents(
  trx: Tx,
  type: "tunnel.online" | "tunnel.offline",
  rows: readonly StatusEventRow[],
  cause?: "locked",
): Promise<void> {
  const payloads = rows.map((r) => ({
    tun_id: r.tun_id,
    uid: r.uid,
    node_id: r.node_id,
    name: r.tun_name,
    ...(type === "tunnel.offline" && { cause: cause ?? (r.enabled === 1 ? "client" : "disabled") }),
  }));
  await recordEvents(trx, type, payloads, { wake: false });
}

/**
 * An operator's lock takes a connected tunnel offline without frps (its status becomes locked, so no
 * CloseProxy records it): call before the lock's update, in its transaction; records
 * "tunnel.offline" with cause "locked" when the tunnel was connected.
 */
export async function recordLockOffline(trx: Tx, tunId: number): Promise<void> {
  const connected = await transitioning(trx, [tunId], (eb) => eb("status", "=", TunnelStatus.Connected));
  await recordStatusEvents(trx, "tunnel.offline", connected, "locked");
}

/** Locked, deleted or turned off: frps holding such a tunnel's proxy is what gets its sessions refused. */
const blocked = (r: { status: number; enabled: number }) =>
  r.status === TunnelStatus.Locked || r.status === TunnelStatus.Deleted || r.enabled !== 1;

/**
 * Announces the tunnels among `rows` that are blocked now, with those named in `also`: a hold
 * taken, kept or released on a blocked tunnel changes what every process refuses (a lock that
 * landed between the plugin's answer and this write has had every process reload the row).
 */
function announceBlocked(
  trx: Tx,
  rows: { tun_id: number; uid: number; status: number; enabled: number }[],
  also: { tun_id: number; uid: number }[] = [],
): void {
  const out = new Map(also.map((t) => [t.tun_id, t.uid]));
  for (const r of rows) if (blocked(r)) out.set(r.tun_id, r.uid);
  for (const [tun_id, uid] of out) trx.changes.emit("tunnel.changed", { tun_id, uid });
}

/*
 * Who holds a proxy, whatever order frps's calls arrive in. frps sends CloseProxy from a goroutine
 * (frp-protocol.md Appendix C): after frpc reconnects under the same run id (or reloads a proxy)
 * the old proxy's CloseProxy can come after the new proxy's NewProxy. So the holder's NewProxy
 * counts one more close still to come from an earlier proxy of that session (`stale_closes`), and
 * its CloseProxy takes one off while there are any, releasing the hold only at 0. From a hold of
 * run id R with none pending, "NewProxy R, CloseProxy R" and "CloseProxy R, NewProxy R" both
 * leave R holding with none pending, whichever API process answered which call and whichever wrote
 * first. A NewProxy the plugin allowed that frps then refused is counted too: one CloseProxy more
 * is then taken for stale and the hold stays until the poller sees the proxy gone (in doubt the
 * hold stays). A hold the poller took from the dashboard (no hold was recorded) is marked -1: the
 * proxy it saw is the one whose NewProxy is not written yet (when frps asks the plugin about a
 * NewProxy, no earlier proxy of that name and session is registered any more), so that NewProxy
 * counts no earlier close. The frp plugin keeps the same count in memory (decision-cache.ts).
 */

/** `stale_closes` of a hold the poller took from the dashboard, no NewProxy of it counted. */
export const SEEN_HOLD = -1;

/**
 * A session (`runId`) opened these tunnels' proxies, `opens` times each (NewProxy allowed it while
 * no session or this one held it): it holds them, with `opens` more CloseProxy of its earlier
 * proxies to come if it held them already (`opens - 1` otherwise). Recorded whatever the tunnel's
 * status now: locked or deleted since the plugin allowed it, frps still holds the proxy (they keep
 * that status; an offline tunnel becomes connected). Announced for blocked tunnels only.
 */
export async function tunnelsOnline(trx: Tx, tunIds: number[], runId: string, at: string, opens = 1): Promise<void> {
  const n = Math.max(1, Math.trunc(opens));
  for (const ids of chunks(tunIds)) {
    const coming = await transitioning(trx, ids, (eb) => eb("status", "=", TunnelStatus.Offline));
    const rows = await trx
      .updateTable("tunnels")
      .set({
        status: sql<number>`case when status = ${TunnelStatus.Offline} then ${TunnelStatus.Connected} else status end`,
        stale_closes: sql<number>`case when run_id = ${runId} and stale_closes >= 0 then stale_closes + ${sql.lit(n)} else ${sql.lit(n - 1)} end`,
        run_id: runId,
        last_online_at: at,
      })
      .where("tun_id", "in", ids)
      .returning(["tun_id", "uid", "status", "enabled"])
      .execute();
    announceBlocked(trx, rows);
    await recordStatusEvents(trx, "tunnel.online", coming);
  }
}

/**
 * A session (`runId`) closed these tunnels' proxies, `closes` times each (CloseProxy). Closes of
 * its earlier proxies still to come (`stale_closes`) are taken first and leave the hold; past
 * them the hold is released, a connected tunnel goes offline (locked or deleted ones keep their
 * status) and a deleted tunnel's domains, reserved while frps held it, are freed. Tunnels another
 * session holds are left alone. `announce` names tunnels every process must hear of (blocked
 * where the plugin answered); blocked ones are announced in any case.
 */
export async function tunnelsOffline(
  trx: Tx,
  tunIds: number[],
  runId: string,
  announce: { tun_id: number; uid: number }[],
  closes = 1,
): Promise<void> {
  const n = Math.max(1, Math.trunc(closes));
  const stale = sql<boolean>`run_id = ${runId} and stale_closes >= ${sql.lit(n)}`;
  const rows: { tun_id: number; uid: number; status: number; enabled: number }[] = [];
  for (const ids of chunks(tunIds)) {
    const going = await transitioning(trx, ids, (eb) =>
      eb.and([
        eb("status", "=", TunnelStatus.Connected),
        eb.or([eb("run_id", "=", runId), eb("run_id", "is", null)]),
        // Parenthesised: `not` binds tighter than the `and` inside `stale`.
        eb.not(sql<boolean>`(${stale})`),
      ]),
    );
    const matched = await trx
      .updateTable("tunnels")
      .set({
        status: sql<number>`case when ${stale} then status when status = ${TunnelStatus.Connected} then ${TunnelStatus.Offline} else status end`,
        stale_closes: sql<number>`case when ${stale} then stale_closes - ${sql.lit(n)} else 0 end`,
        run_id: sql<string | null>`case when ${stale} then run_id else null end`,
      })
      .where("tun_id", "in", ids)
      .where((eb) => eb.or([eb("run_id", "=", runId), eb("run_id", "is", null)]))
      .returning(["tun_id", "uid", "status", "enabled"])
      .execute();
    rows.push(...matched);
    await releaseDeletedDomains(trx, ids);
    await recordStatusEvents(trx, "tunnel.offline", going);
  }
  announceBlocked(trx, rows, announce);
}

/**
 * The poller saw an offline tunnel's proxy online: connected, held by `runId` (a hold taken here
 * from the dashboard is marked SEEN_HOLD; one already recorded keeps its count).
 */
export async function tunnelSeenOnline(trx: Tx, tunId: number, runId: string | null, at: string): Promise<void> {
  const seen = await trx
    .updateTable("tunnels")
    .set({
      status: TunnelStatus.Connected,
      last_online_at: at,
      stale_closes: sql<number>`case when run_id = ${runId} then stale_closes else ${sql.lit(runId === null ? 0 : SEEN_HOLD)} end`,
      run_id: runId,
    })
    .where("tun_id", "=", tunId)
    .where("status", "=", TunnelStatus.Offline)
    .returning(STATUS_EVENT_COLUMNS)
    .execute();
  await recordStatusEvents(trx, "tunnel.online", seen);
}

/** The poller no longer sees these connected tunnels online: offline, without a hold. */
export async function tunnelsGone(trx: Tx, tunIds: number[]): Promise<void> {
  for (const ids of chunks(tunIds)) {
    const gone = await trx
      .updateTable("tunnels")
      .set({ status: TunnelStatus.Offline, run_id: null, stale_closes: 0 })
      .where("tun_id", "in", ids)
      .where("status", "=", TunnelStatus.Connected)
      .returning(STATUS_EVENT_COLUMNS)
      .execute();
    await recordStatusEvents(trx, "tunnel.offline", gone);
  }
}

/** A blocked tunnel frps shows online: `runId` is recorded as its hold (SEEN_HOLD), so its sessions are refused. */
export async function holdTunnel(trx: Tx, t: { tun_id: number; uid: number }, runId: string): Promise<void> {
  await trx
    .updateTable("tunnels")
    .set({ run_id: runId, stale_closes: SEEN_HOLD })
    .where("tun_id", "=", t.tun_id)
    .execute();
  trx.changes.emit("tunnel.changed", { tun_id: t.tun_id, uid: t.uid });
}

/** frps no longer holds the tunnel's proxy: the hold is released (a deleted tunnel's domains with it). */
export async function releaseTunnelHold(trx: Tx, t: { tun_id: number; uid: number }): Promise<void> {
  await trx.updateTable("tunnels").set({ run_id: null, stale_closes: 0 }).where("tun_id", "=", t.tun_id).execute();
  await releaseDeletedDomains(trx, [t.tun_id]);
  trx.changes.emit("tunnel.changed", { tun_id: t.tun_id, uid: t.uid, released: true });
}

/**
 * A node is being deleted (a node-deleted hook, inside that transaction; it has no live tunnel):
 * the deleted tunnels its frps still held are released, slot and domains, since no poll of the
 * node will ever release them now.
 */
export async function releaseNodeHolds(trx: Tx, nodeId: number): Promise<void> {
  const held = await trx
    .selectFrom("tunnels")
    .select(["tun_id", "uid"])
    .where("node_id", "=", nodeId)
    .where("run_id", "is not", null)
    .execute();
  for (const t of held) await releaseTunnelHold(trx, t);
  // Tunnels moved away from it while held: no dashboard of it will end those holds now.
  const moved = await trx.selectFrom("tunnels").select(["tun_id", "uid"]).where("moved_node_id", "=", nodeId).execute();
  await releaseMovedHolds(trx, nodeId, moved);
}

/**
 * The tunnel's last move still has its old session serving it on the node it left (moved hold).
 * A move waits for that session to go: the hold is one (node, session) pair, and a second move
 * would replace it (or, back to that node, end it) while that session still serves the old port.
 */
export async function movedHoldPending(trx: Tx, tunId: number): Promise<boolean> {
  const r = await trx.selectFrom("tunnels").select("moved_node_id").where("tun_id", "=", tunId).executeTakeFirst();
  return r?.moved_node_id != null;
}

/**
 * The SET of a move to `toNode` for the moved hold (tunnels.moved_node_id / moved_run_id, read
 * against the row before the update): the session holding the proxy on the node it leaves keeps
 * serving it there until it drops it, so it is recorded for every process and the node's agent
 * to refuse (plugin.ts heldBlock). Not held: an earlier move's hold stays, unless the tunnel
 * moves back to that node (there its session is the tunnel's own again, as the poller sees it).
 */
export function movedHoldValues(toNode: number) {
  const keep = (col: "moved_node_id" | "moved_run_id", held: "node_id" | "run_id") =>
    sql<never>`case when run_id is not null then ${sql.ref(held)} when moved_node_id = ${toNode} then null else ${sql.ref(col)} end`;
  return { moved_node_id: keep("moved_node_id", "node_id"), moved_run_id: keep("moved_run_id", "run_id") };
}

/**
 * The old node's dashboard no longer shows these moved tunnels' proxies online: their moved holds
 * there end (the sessions' heartbeats are no longer refused). Announced: every process and agent
 * drops them.
 */
export async function releaseMovedHolds(
  trx: Tx,
  nodeId: number,
  tunnels: { tun_id: number; uid: number }[],
): Promise<void> {
  for (const rows of chunks(tunnels)) {
    const done = await trx
      .updateTable("tunnels")
      .set({ moved_node_id: null, moved_run_id: null })
      .where(
        "tun_id",
        "in",
        rows.map((t) => t.tun_id),
      )
      .where("moved_node_id", "=", nodeId)
      .returning(["tun_id", "uid"])
      .execute();
    for (const t of done) trx.changes.emit("tunnel.changed", { tun_id: t.tun_id, uid: t.uid });
  }
}

/** Bytes of one tunnel on one Shanghai day, as the poller credits them. */
export interface TrafficCredit {
  tun_id: number;
  uid: number;
  day: string;
  traffic_in: number;
  traffic_out: number;
}

/**
 * Adds credits to the per-day rows and the tunnels' totals, a few statements per 400 rows;
 * returns the bytes per customer (to charge to their quota). Announces the customers
 * (traffic.changed): their traffic pages are kept in memory until then.
 */
export async function addTunnelTraffic(
  trx: Tx,
  nodeId: number,
  credits: TrafficCredit[],
): Promise<Map<number, number>> {
  const perUser = new Map<number, number>();
  const perTunnel = new Map<number, { i: number; o: number }>();
  for (const c of credits) {
    perUser.set(c.uid, (perUser.get(c.uid) ?? 0) + c.traffic_in + c.traffic_out);
    const t = perTunnel.get(c.tun_id) ?? { i: 0, o: 0 };
    t.i += c.traffic_in;
    t.o += c.traffic_out;
    perTunnel.set(c.tun_id, t);
  }
  for (const rows of chunks(mergeCredits(credits))) {
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
  if (perUser.size) trx.changes.emit("traffic.changed", { uids: [...perUser.keys()] });
  return perUser;
}

/** Deletes visitor-connection rows created before `cutoff` (ISO time); returns how many. */
export async function pruneTunnelConns(db: Kysely<DB>, cutoff: string): Promise<number> {
  const r = await db.deleteFrom("tunnel_conns").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
