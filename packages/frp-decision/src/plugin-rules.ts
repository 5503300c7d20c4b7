/**
 * The plugin's rules over one tunnel that need no per-process state: bandwidth, the plan's limits,
 * the custom domains held, and the hold a moved tunnel leaves on its old node.
 */
import { portCount } from "@burrow/contract";
import { domainHolding } from "./domains";
import { type NodeEntry, type TunnelEntry, tunnelBlock, type UserEntry } from "./entries";

/** Bytes per second of a Mbps rate, as frp's "<float>KB" quantity (KB = 1024 bytes, exact for any whole Mbps). */
export function bandwidthQuantity(mbps: number): string {
  return `${(mbps * 125_000) / 1024}KB`;
}

/** The smallest positive of the tunnel's, plan's and node's bandwidth (Mbps), 0 when none is set. */
export function effectiveBandwidth(tunnel: number, plan: number, node: number): number {
  let min = 0;
  for (const m of [tunnel, plan, node]) if (m > 0 && (min === 0 || m < min)) min = m;
  return min;
}

/** Could run now: not deleted, locked or turned off (what tunnel_limit counts at connect time). */
const runnable = (t: TunnelEntry) => tunnelBlock(t) === null;

/**
 * Why the plan in force no longer admits this tunnel, or null. Checked when it connects and at
 * each heartbeat while it is up, so a smaller plan (after an expiry or an operator's edit) takes
 * effect at the next connect, and within one heartbeat for sessions already up:
 * - tunnel_limit: the oldest runnable tunnels win (tun_id order, i.e. creation order);
 * - tunnel_peer_port_limit: ports or domains of this tunnel.
 */
export function planBlock(user: UserEntry, t: TunnelEntry): string | null {
  const limits = user.limits;
  if (!limits) return null;
  if (limits.tunnel_limit > 0) {
    let older = 0;
    for (const o of user.tunnels.values()) if (o.tun_id < t.tun_id && runnable(o)) older++;
    if (older >= limits.tunnel_limit)
      return `隧道 ${t.tun_name} 超出套餐隧道数量上限 ${limits.tunnel_limit} 条（tunnel_limit，较早创建的隧道优先）`;
  }
  const entries =
    t.protocol === "http" || t.protocol === "https"
      ? t.custom_domains.length + (t.subdomain ? 1 : 0)
      : portCount(t.remote_port, t.remote_port_end ?? null);
  if (limits.tunnel_peer_port_limit > 0 && entries > limits.tunnel_peer_port_limit)
    return `隧道 ${t.tun_name} 超出套餐限制：每条隧道最多 ${limits.tunnel_peer_port_limit} 个端口或域名（tunnel_peer_port_limit）`;
  return null;
}

/**
 * A custom domain the user no longer holds (never verified, unbound by an operator, lapsed, or
 * flagged past its grace period) or that points at another node: the proxy is refused.
 */
export function domainBlock(user: UserEntry, t: TunnelEntry, now: number): string | null {
  for (const d of t.custom_domains) {
    const held = domainHolding(user.domains, d);
    if (held?.taken) return `隧道 ${t.tun_name} 的域名 ${d} 已被其他用户验证，泛域名不再覆盖它`;
    if (!held) return `隧道 ${t.tun_name} 的域名 ${d} 未验证或已被解绑，请在控制台「我的域名」中查看`;
    if (held.untilMs <= now)
      return `隧道 ${t.tun_name} 的域名 ${d} 的 TXT 验证记录已缺失超过宽限期，请恢复记录后重新验证`;
    if (held.node_id !== t.node_id) return `隧道 ${t.tun_name} 的域名 ${d} 未指向此节点`;
  }
  return null;
}

/** heldAt's key of a tunnel's proxy on a node: one number, no string built on the visitor path. */
export const movedKey = (nodeId: number, tunId: number) => nodeId * 2 ** 32 + tunId;

/** The session `runId` on the node still held the tunnel there when it was moved away (persisted). */
export const movedHere = (t: TunnelEntry, node: NodeEntry, runId: string) =>
  t.moved_run_id === runId && t.moved_node_id === node.node_id && t.node_id !== node.node_id;

/** That session dropped the proxy (this process's copy; the database's follows the dashboard). */
export const dropMovedHold = (t: TunnelEntry) => {
  t.moved_node_id = null;
  t.moved_run_id = null;
};
