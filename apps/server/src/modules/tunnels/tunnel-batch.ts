import {
  type MoveTunnelBody,
  type TunnelBatchBody,
  type TunnelBatchResult,
  TunnelStatus,
  type TunnelView,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { AppError, invalid, notFound, refused } from "../../shared/errors";
import { isWeb } from "./tunnel-draft";
import { findOwnTunnel } from "./tunnels.repository";
import {
  deleteTunnel,
  editedDraft,
  loadNode,
  lockedEdit,
  requireLimits,
  updateTunnel,
  writeTunnel,
} from "./tunnels.service";

/* 我的隧道's batch actions and moving a tunnel to another node (issue 33 §10, docs/tunnels.md). */

/**
 * One action on several of the customer's tunnels, each through the single call's own path
 * (updateTunnel's switch, deleteTunnel), so each is checked exactly as alone: a tunnel refused
 * (locked, a start guard) is reported with that call's code and message, the others are done.
 * An id that is not one of the customer's live tunnels refuses the whole call before anything
 * changes: like the single call's 404, it says nothing of whose tunnel it is, and a stale or
 * forged selection does not half-apply.
 */
export async function batchTunnels(ctx: AppContext, uid: number, body: TunnelBatchBody): Promise<TunnelBatchResult> {
  const own = await ctx.db
    .selectFrom("tunnels")
    .select("tun_id")
    .where("uid", "=", uid)
    .where("tun_id", "in", body.tun_ids)
    .where("status", "<>", TunnelStatus.Deleted)
    .execute();
  if (own.length !== body.tun_ids.length) throw notFound("隧道");
  const result: TunnelBatchResult = { done: [], failed: [] };
  for (const tunId of body.tun_ids) {
    try {
      if (body.action === "delete") await deleteTunnel(ctx, uid, tunId);
      else await updateTunnel(ctx, uid, { tun_id: tunId, enabled: body.action === "enable" });
      result.done.push(tunId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result.failed.push({ tun_id: tunId, code: err.code, msg: err.message });
    }
  }
  return result;
}

/**
 * Moves a tunnel to another node: the one write path of an edit (writeTunnel) against the new
 * node, so its port and domains are checked there under the customer's and the new node's locks
 * as on creation (level, range, 40001 when taken, the domains pointed at that node). The hold of
 * the old node's session moves to tunnels.moved_node_id / moved_run_id in the same update
 * (sessions.ts movedHoldValues): that session's heartbeats are refused there by every process and
 * the node's agent until the node's dashboard no longer shows the old proxy, and its NewProxy and
 * visitors are refused (the tunnel is not on that node). The customer downloads the new frpc.toml.
 */
export async function moveTunnel(ctx: AppContext, uid: number, body: MoveTunnelBody): Promise<TunnelView> {
  const cur = await findOwnTunnel(ctx.db, uid, body.tun_id);
  if (!cur) throw notFound("隧道");
  if (cur.status === TunnelStatus.Locked) throw refused(lockedEdit(cur.banned_reason));
  if (cur.node_id === body.node_id) throw invalid("node_id", "隧道已在该节点上，请选择其他节点");
  if (isWeb(cur.protocol) && body.remote_port) throw invalid("remote_port", "http(s) 隧道不使用远程端口");
  const { node, level } = await loadNode(ctx.db, body.node_id);
  const limits = await requireLimits(ctx.db, uid);
  // tcp/udp: the port asked for, else the same number (editedDraft keeps the stored one); a port
  // range keeps its width from the new start (a random start, 0, stays refused for a range).
  const width = cur.remote_port_end !== null && cur.remote_port !== null ? cur.remote_port_end - cur.remote_port : null;
  const draft = editedDraft(
    cur,
    body.remote_port === undefined
      ? {}
      : {
          remote_port: body.remote_port,
          ...(width !== null && body.remote_port ? { remote_port_end: body.remote_port + width } : {}),
        },
  );
  return writeTunnel(ctx, { uid, node, level, limits, tunId: cur.tun_id, check: true, moving: true }, draft);
}
