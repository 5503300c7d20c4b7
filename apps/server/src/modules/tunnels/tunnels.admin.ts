import { type AdminTunnelRow, type AdminUpdateTunnelBody, IllegalStatus, TunnelStatus } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { recordLockOffline } from "./sessions";
import { cleanAddon, unmaskAddon } from "./tunnel-draft";
import { recordTunnelEvents } from "./tunnel-events";
import { findTunnel, markDeleted, nameTaken } from "./tunnels.repository";
import { getAdminTunnel } from "./tunnels.service";

/* Operators' edits of a tunnel: lock, unlock, delete, rename, its addon (each audited). */

/**
 * Locks a tunnel (status 3 with a reason). If it is connected, the frp decision cache sees the
 * lock at once: new visitor connections are refused and the client's next heartbeat is refused,
 * which makes frps drop the session; the client's reconnect can no longer open this tunnel.
 */
export async function lockTunnel(trx: Tx, tunId: number, reason: string, operatorUid: number): Promise<void> {
  const now = nowIso();
  await recordLockOffline(trx, tunId);
  const t = await trx
    .updateTable("tunnels")
    .set({ status: TunnelStatus.Locked, banned_reason: reason, updated_at: now })
    .where("tun_id", "=", tunId)
    .returning(["uid", "node_id", "tun_name"])
    .executeTakeFirst();
  if (t) {
    trx.changes.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
    // What frpc is told from now on (frp's tunnelBlock), so the row reads as the refusals after it.
    const told = `隧道 ${t.tun_name} 已被锁定${reason ? `：${reason}` : ""}`;
    await recordOperatorEvent(trx, { tun_id: tunId, uid: t.uid, node_id: t.node_id }, "locked", told, now);
  }
  await trx
    .updateTable("tunnel_flags")
    .set({ status: IllegalStatus.Banned, handled_at: now, handled_by: operatorUid })
    .where("tun_id", "=", tunId)
    .where("status", "=", IllegalStatus.Pending)
    .execute();
}

/** 连接诊断: an operator's lock or unlock, in its transaction. */
function recordOperatorEvent(
  trx: Tx,
  t: { tun_id: number; uid: number; node_id: number },
  kind: "locked" | "unlocked",
  reason: string,
  at: string,
): Promise<void> {
  const row = { tun_id: t.tun_id, uid: t.uid, node_id: t.node_id, kind, reason, count: 1, first_at: at, last_at: at };
  return recordTunnelEvents(trx, [row]);
}

/**
 * An operator's edit: status and banned reason change together (3 locks with a reason, 2
 * unlocks and clears it, −1 deletes), plus name and addon.
 */
export async function adminUpdateTunnel(
  ctx: AppContext,
  op: Operator,
  body: AdminUpdateTunnelBody,
): Promise<AdminTunnelRow> {
  const cur = await findTunnel(ctx.db, body.tun_id);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Deleted) throw refused("隧道已删除，不能修改");
  if (body.banned_reason !== undefined && body.status === undefined && cur.status !== TunnelStatus.Locked)
    throw invalid("banned_reason", "只有锁定的隧道才有封禁原因，请同时设置 status 为 3");
  if (body.addon && Object.keys(cleanAddon(body.addon)).length && cur.protocol !== "http")
    throw invalid("addon", "附加选项仅适用于 http 隧道");
  if (body.tun_name && body.tun_name !== cur.tun_name && (await nameTaken(ctx.db, cur.uid, body.tun_name, cur.tun_id)))
    throw localDuplicated("该用户已有同名隧道", "tun_name");
  await transact(ctx, async (trx) => {
    trx.changes.emit("tunnel.changed", { tun_id: cur.tun_id, uid: cur.uid });
    const set = {
      ...(body.tun_name !== undefined && { tun_name: body.tun_name }),
      ...(body.addon !== undefined && { addon: JSON.stringify(cleanAddon(unmaskAddon(body.addon, cur))) }),
    };
    if (Object.keys(set).length)
      await trx
        .updateTable("tunnels")
        .set({ ...set, updated_at: nowIso() })
        .where("tun_id", "=", cur.tun_id)
        .execute();
    if (body.status === TunnelStatus.Locked) {
      await lockTunnel(trx, cur.tun_id, body.banned_reason ?? "", op.uid);
    } else if (body.status === TunnelStatus.Offline && cur.status === TunnelStatus.Locked) {
      await trx
        .updateTable("tunnels")
        .set({ status: TunnelStatus.Offline, banned_reason: null, updated_at: nowIso() })
        .where("tun_id", "=", cur.tun_id)
        .execute();
      await recordOperatorEvent(trx, cur, "unlocked", `隧道 ${cur.tun_name} 已由管理员解锁`, nowIso());
    } else if (body.status === TunnelStatus.Deleted) {
      await markDeleted(trx, cur.tun_id);
    } else if (body.banned_reason !== undefined && cur.status === TunnelStatus.Locked) {
      await trx
        .updateTable("tunnels")
        .set({ banned_reason: body.banned_reason })
        .where("tun_id", "=", cur.tun_id)
        .execute();
    }
    await audit(trx, {
      operatorUid: op.uid,
      action: "tunnel.update",
      target: `tunnel:${cur.tun_id}`,
      detail: body,
      ip: op.ip,
    });
  });
  return getAdminTunnel(ctx, cur.tun_id);
}
