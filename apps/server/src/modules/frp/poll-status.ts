import { TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import { type Tx, transact } from "../../shared/tx";
import { setNodeHealth } from "../nodes/nodes.service";
import type { NodeRow } from "../nodes/nodes.table";
import { holdTunnel, releaseMovedHolds, releaseTunnelHold, tunnelSeenOnline, tunnelsGone } from "../tunnels/sessions";
import type { ServerInfo } from "./dashboard-client";
import type { PolledTunnel, Seen } from "./poll-common";
import { holdNode } from "./poll-guards";

/* What a poll learns of state: the node's health, and the status and holds of its tunnels. */

/** Writes the node's health; announces a status change to the frp decision caches. */
export async function recordHealth(
  ctx: AppContext,
  node: NodeRow,
  status: number,
  now: Date,
  error: string | null,
  info: ServerInfo | null,
): Promise<void> {
  // Values the dashboard did not give validly keep what the last poll stored.
  const known = <K extends string>(k: K, v: number | null) => (v === null ? {} : ({ [k]: v } as Record<K, number>));
  const values = {
    node_id: node.node_id,
    last_poll_at: now.toISOString(),
    last_error: error,
    ...(info && {
      version: info.version || null,
      ...known("cur_conns", info.curConns),
      ...known("client_counts", info.clientCounts),
      proxy_counts: JSON.stringify(info.proxyTypeCount),
      ...known("traffic_in", info.totalTrafficIn),
      ...known("traffic_out", info.totalTrafficOut),
    }),
  };
  const { node_id: _id, ...update } = values;
  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    if (node.status !== status) await setNodeHealth(trx, node.node_id, status, error);
    await trx
      .insertInto("node_runtime")
      .values(values)
      .onConflict((oc) => oc.column("node_id").doUpdateSet(update))
      .execute();
  });
}

/** The hold recorded for a blocked proxy frps shows online without a known session (frps < 0.67 names none). */
const DASHBOARD_HOLD = "dashboard";

/**
 * Makes tunnel status and holds follow what the dashboard shows (CloseProxy is best effort: an
 * frps restart may never send it): online proxies → connected, connected tunnels frps no longer
 * has online → offline. A blocked tunnel still online without a recorded session gets the
 * dashboard's client id as its hold, so that every session of its user on the node is refused at
 * the next heartbeat; a hold on a proxy frps no longer has online is released (a deleted tunnel's
 * domains with it, which it kept reserved until then). A moved tunnel's hold here (moved_node_id)
 * ends once the proxy is no longer online here: the dashboard says whether the old frps still
 * serves it, whichever process got (or missed) the CloseProxy, in direct and agent mode alike.
 */
export async function reconcileStatus(
  trx: Tx,
  nodeId: number,
  seen: Seen[],
  all: Map<number, PolledTunnel>,
  now: Date,
  opts: { releaseMoved: boolean } = { releaseMoved: true },
): Promise<void> {
  // A moved tunnel's status is its new node's; here only its moved hold follows the dashboard.
  const tunnels = new Map([...all].filter(([, t]) => !t.moved));
  const onlineIds = new Set<number>();
  for (const { s, ref } of seen) {
    // A status frps did not give validly changes nothing this round.
    if (s.online === null) onlineIds.add(ref.tun_id);
    if (!s.online) continue;
    onlineIds.add(ref.tun_id);
    const t = tunnels.get(ref.tun_id);
    if (!t) continue;
    const blocked = t.status === TunnelStatus.Locked || t.status === TunnelStatus.Deleted || t.enabled !== 1;
    if (t.status === TunnelStatus.Offline && t.enabled === 1) {
      await tunnelSeenOnline(trx, t.tun_id, t.run_id ?? s.clientId, now.toISOString());
    } else if (blocked && !t.run_id) {
      await holdTunnel(trx, t, s.clientId ?? DASHBOARD_HOLD);
    }
  }
  const gone = [...tunnels.values()].filter((t) => !onlineIds.has(t.tun_id));
  await tunnelsGone(
    trx,
    gone.filter((t) => t.status === TunnelStatus.Connected).map((t) => t.tun_id),
  );
  for (const t of gone.filter((t) => t.status !== TunnelStatus.Connected && t.run_id !== null))
    await releaseTunnelHold(trx, t);
  if (opts.releaseMoved)
    await releaseMovedHolds(
      trx,
      nodeId,
      [...all.values()].filter((t) => t.moved && !onlineIds.has(t.tun_id)),
    );
}
