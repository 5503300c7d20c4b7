import { TunnelStatus } from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";
import { releaseDeletedDomains } from "./tunnels.repository";

/*
 * What frps reports about tunnels, written by their owner for the frp module (plugin write-behind
 * and poller): sessions (status, run id), traffic and visitor connections. Writes that only record
 * what the reporting process already knows (a session opened or closed, bytes counted) are not
 * announced; a hold released or taken changes what every process decides, and is.
 */

/** Rows per multi-row statement: far below both drivers' bind-parameter limits. */
const CHUNK = 400;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** A session (`runId`) opened these tunnels' proxies (NewProxy); locked or deleted ones keep their status. */
export async function tunnelsOnline(trx: Tx, tunIds: number[], runId: string, at: string): Promise<void> {
  for (const ids of chunks(tunIds)) {
    await trx
      .updateTable("tunnels")
      .set({ status: TunnelStatus.Connected, run_id: runId, last_online_at: at })
      .where("tun_id", "in", ids)
      .where("status", "in", [TunnelStatus.Connected, TunnelStatus.Offline])
      .execute();
  }
}

/**
 * A session (`runId`) closed these tunnels' proxies (CloseProxy): its hold is released, a connected
 * tunnel goes offline (locked or deleted ones keep their status) and a deleted tunnel's domains,
 * reserved while frps held it, are freed. `announce` names the tunnels every process must hear of
 * (a blocked tunnel's session ended: its heartbeats are no longer refused).
 */
export async function tunnelsOffline(
  trx: Tx,
  tunIds: number[],
  runId: string,
  announce: { tun_id: number; uid: number }[],
): Promise<void> {
  for (const ids of chunks(tunIds)) {
    await trx
      .updateTable("tunnels")
      .set({
        run_id: null,
        status: sql<number>`case when status = ${TunnelStatus.Connected} then ${TunnelStatus.Offline} else status end`,
      })
      .where("tun_id", "in", ids)
      .where((eb) => eb.or([eb("run_id", "=", runId), eb("run_id", "is", null)]))
      .execute();
    await releaseDeletedDomains(trx, ids);
  }
  for (const t of announce) trx.changes.emit("tunnel.changed", { tun_id: t.tun_id, uid: t.uid });
}

/** The poller saw an offline tunnel's proxy online: connected, held by `runId`. */
export async function tunnelSeenOnline(trx: Tx, tunId: number, runId: string | null, at: string): Promise<void> {
  await trx
    .updateTable("tunnels")
    .set({ status: TunnelStatus.Connected, last_online_at: at, run_id: runId })
    .where("tun_id", "=", tunId)
    .where("status", "=", TunnelStatus.Offline)
    .execute();
}

/** The poller no longer sees these connected tunnels online: offline, without a hold. */
export async function tunnelsGone(trx: Tx, tunIds: number[]): Promise<void> {
  for (const ids of chunks(tunIds)) {
    await trx
      .updateTable("tunnels")
      .set({ status: TunnelStatus.Offline, run_id: null })
      .where("tun_id", "in", ids)
      .where("status", "=", TunnelStatus.Connected)
      .execute();
  }
}

/** A blocked tunnel frps shows online: `runId` is recorded as its hold, so its sessions are refused. */
export async function holdTunnel(trx: Tx, t: { tun_id: number; uid: number }, runId: string): Promise<void> {
  await trx.updateTable("tunnels").set({ run_id: runId }).where("tun_id", "=", t.tun_id).execute();
  trx.changes.emit("tunnel.changed", { tun_id: t.tun_id, uid: t.uid });
}

/** frps no longer holds the tunnel's proxy: the hold is released (a deleted tunnel's domains with it). */
export async function releaseTunnelHold(trx: Tx, t: { tun_id: number; uid: number }): Promise<void> {
  await trx.updateTable("tunnels").set({ run_id: null }).where("tun_id", "=", t.tun_id).execute();
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
  if (perUser.size) trx.changes.emit("traffic.changed", { uids: [...perUser.keys()] });
  return perUser;
}

/** Deletes visitor-connection rows created before `cutoff` (ISO time); returns how many. */
export async function pruneTunnelConns(db: Kysely<DB>, cutoff: string): Promise<number> {
  const r = await db.deleteFrom("tunnel_conns").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(r.numDeletedRows);
}
