import { effectiveBandwidth } from "@burrow/frp-decision";
import type { AppContext } from "../../context";
import { transact } from "../../shared/tx";
import type { NodeRow } from "../nodes/nodes.table";
import { getPlanLimits } from "../subscriptions/quota";
import { recordTunnelEvents } from "../tunnels/tunnel-events";
import { inflightBytes, type OpenProxy } from "./counters";
import { NODE_LINE_MBPS, type PolledTunnel } from "./poll-common";
import { holdNode } from "./poll-guards";

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

/**
 * Bounded overage on long connections. frps counts a connection's bytes when it closes, so an
 * SSH forward or a VPN can carry any amount while the counters stand still. For each customer with
 * connections open on the node, the bytes those could hold uncounted (inflightBytes, at the
 * tunnel's enforced bandwidth) are compared with the quota left: when the quota is smaller, their
 * sessions on this node are kicked (Ping refused, see plugin.ts) so that frps closes the
 * connections and counts them; the kick is lifted at the first poll where the estimate fits again
 * (after the kick the connections are closed and counted), so a customer with quota left
 * reconnects. Overage is then at most the bandwidth × (poll interval + heartbeat interval) + 1 s.
 */
export async function reviewKicks(
  ctx: AppContext,
  node: NodeRow,
  now: Date,
  open: OpenProxy[],
  tunnels: Map<number, PolledTunnel>,
): Promise<void> {
  const byUser = new Map<number, OpenProxy[]>();
  for (const o of open) byUser.set(o.uid, [...(byUser.get(o.uid) ?? []), o]);
  const standing = new Set(
    (await ctx.db.selectFrom("frp_kicks").select("uid").where("node_id", "=", node.node_id).execute()).map(
      (k) => k.uid,
    ),
  );
  const until = new Date(now.getTime() + 2 * ctx.config.FRP_POLL_INTERVAL * 1000).toISOString();
  /** kicks to write (an estimate) and to lift (null), in uid order: two polls of the node at once lock rows alike */
  const changes: [number, { inflight: number; remaining: number } | null][] = [];
  for (const uid of new Set([...byUser.keys(), ...standing])) {
    const limits = byUser.has(uid) ? await getPlanLimits(ctx.db, uid) : null;
    let inflight = 0;
    for (const o of byUser.get(uid) ?? []) {
      const mbps = effectiveBandwidth(tunnels.get(o.tun_id)?.bandwidth ?? 0, limits?.bandwidth ?? 0, node.bandwidth);
      inflight += inflightBytes(o, (mbps || NODE_LINE_MBPS) * 125_000, now);
    }
    const remaining = limits ? Math.max(0, limits.traffic_quota - limits.traffic_used) : 0;
    if (limits && remaining < inflight) changes.push([uid, { inflight, remaining }]);
    else if (standing.has(uid)) changes.push([uid, null]);
  }
  if (!changes.length) return;
  changes.sort((a, b) => a[0] - b[0]);
  await transact(ctx, async (trx) => {
    await holdNode(trx, node.node_id);
    for (const [uid, estimate] of changes) {
      if (!estimate) {
        await trx.deleteFrom("frp_kicks").where("node_id", "=", node.node_id).where("uid", "=", uid).execute();
      } else {
        const values = { ...estimate, until };
        await trx
          .insertInto("frp_kicks")
          .values({ uid, node_id: node.node_id, created_at: now.toISOString(), ...values })
          .onConflict((oc) => oc.columns(["uid", "node_id"]).doUpdateSet(values))
          .execute();
        if (standing.has(uid)) continue;
        ctx.log.info({ node_id: node.node_id, uid, ...estimate }, "frp: kicking sessions to count open connections");
      }
      // 连接诊断: the poller's finding, on the customer's sessions on the node (a new kick or its lift).
      const reason = estimate
        ? `节点检测：未结算的连接可能超过剩余流量（剩余 ${mib(estimate.remaining)}，估计 ${mib(estimate.inflight)}），下一次心跳将断开以结算流量`
        : "节点检测：连接的流量已结算，可以重新连接";
      const at = now.toISOString();
      const row = {
        tun_id: 0,
        uid,
        node_id: node.node_id,
        kind: "poller" as const,
        reason,
        count: 1,
        first_at: at,
        last_at: at,
      };
      await recordTunnelEvents(trx, [row]);
      // Kicks are frp's own rows: the customer's decision caches hear of a new or lifted one.
      trx.changes.emit("subscription.changed", { uid });
    }
  });
}
