import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { notFound, rateLimited, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { countTunnelEvents, recordTunnelEvents } from "../tunnels/tunnel-events";
import { findOwnTunnel } from "../tunnels/tunnels.repository";

/** 强制下线 at most this many times per tunnel per window. */
export const FREE_LIMIT = 5;
export const FREE_WINDOW_MS = 10 * 60_000;
/**
 * How long a freed session stays barred: frpc logs in again under the same run id at once after a
 * refused heartbeat, and must not take the proxy back before the customer's new frpc does.
 */
export const EVICT_MS = 10 * 60_000;

/**
 * 强制下线 (issue 33 §2): the session (run id) that holds the tunnel is barred. Its next heartbeat is
 * refused, so a live frpc drops the session and frps closes its proxies (CloseProxy releases the
 * hold, the existing path); its Login and NewProxy are refused for EVICT_MS, so the customer's new
 * frpc gets the proxy at its next NewProxy. frps has no kick (frp-protocol.md Appendix C): a
 * session whose frpc is gone sends no heartbeat, and frps drops it only at its heartbeatTimeout.
 * Limited per tunnel (counted under the customer's lock), audited, and shown in 连接诊断.
 */
export async function freeSession(ctx: AppContext, op: Operator, uid: number, tunId: number): Promise<null> {
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const t = await findOwnTunnel(trx, uid, tunId);
    if (!t) throw notFound("隧道");
    const now = Date.now();
    const used = await countTunnelEvents(trx, tunId, "session_freed", new Date(now - FREE_WINDOW_MS).toISOString());
    if (used >= FREE_LIMIT) throw rateLimited(Math.ceil(FREE_WINDOW_MS / 1000));
    if (!t.run_id) throw refused("当前没有会话占用此隧道，无需强制下线");
    const at = new Date(now).toISOString();
    const until = new Date(now + EVICT_MS).toISOString();
    await trx
      .insertInto("frp_evictions")
      .values({ uid, run_id: t.run_id, tun_id: tunId, node_id: t.node_id, created_at: at, until })
      .onConflict((oc) => oc.columns(["uid", "run_id"]).doUpdateSet({ tun_id: tunId, node_id: t.node_id, until }))
      .execute();
    const reason = `会话 ${t.run_id} 已被强制下线：它的下一次心跳将被拒绝，新的 frpc 随后即可连接`;
    await recordTunnelEvents(trx, [
      { tun_id: tunId, uid, node_id: t.node_id, kind: "session_freed", reason, count: 1, first_at: at, last_at: at },
    ]);
    await audit(trx, {
      operatorUid: op.uid,
      action: "tunnel.free_session",
      target: `tunnel:${tunId}`,
      detail: { run_id: t.run_id },
      ip: op.ip,
    });
    // Evictions are frp's own rows: every process's plugin hears of it (as of the poller's kicks).
    trx.changes.emit("subscription.changed", { uid });
  });
  return null;
}
