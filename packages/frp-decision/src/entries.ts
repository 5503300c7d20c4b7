/**
 * What the frp plugin decides with: a node, a customer with plan limits, tunnels, kicks and
 * domains. The console builds these from its database (apps/server frp/decision-cache.ts); the
 * node agent from the console's stream (wire.ts).
 */
import { type PlanLimitsInfo, type TunnelSchedule, TunnelStatus } from "@burrow/contract";
import type { TunnelShield } from "./shield";

/**
 * Constant-time comparison of a presented secret with a stored one: every character is compared,
 * whatever the first difference. Only the length can leak, and Burrow's secrets and tokens have a
 * fixed length. A loop over the strings, where crypto.timingSafeEqual would need two buffers
 * allocated per call: this runs twice for every visitor connection.
 */
export function secretEquals(presented: string, stored: string): boolean {
  if (presented.length !== stored.length) return false;
  let diff = 0;
  for (let i = 0; i < stored.length; i++) diff |= presented.charCodeAt(i) ^ stored.charCodeAt(i);
  return diff === 0;
}

/** What a customer's current plan allows, and whether frp may serve them now. */
export interface PlanLimits extends PlanLimitsInfo {
  /** plan_levels.id of the plan */
  level_id: number;
}

/** A custom domain a customer may bind to a tunnel. */
export interface UsableDomain {
  node_id: number;
  /** epoch ms after which tunnels may no longer use it (Infinity while verified; a flagged one's grace end) */
  untilMs: number;
  /** another customer holds this exact name, under a wildcard of this one (domains.ts domainHolding) */
  taken?: true;
}

export interface NodeEntry {
  node_id: number;
  status: number;
  level_id: number;
  /** Mbps cap per tunnel, 0 = none */
  bandwidth: number;
  /** the plugin secret */
  secret: string;
}

export interface TunnelEntry {
  tun_id: number;
  uid: number;
  node_id: number;
  tun_name: string;
  protocol: string;
  remote_port: number | null;
  /** the last port of a port range (remote_port..remote_port_end, one proxy per port); absent or null: one port */
  remote_port_end?: number | null;
  /** custom domains, lower-case */
  custom_domains: string[];
  subdomain: string | null;
  bandwidth: number;
  enabled: boolean;
  status: number;
  banned_reason: string | null;
  /** run id of the frpc session holding the proxy, as far as this process knows */
  run_id: string | null;
  /**
   * CloseProxy calls of the holder's earlier proxies still to come (tunnels.stale_closes), as far
   * as this process knows; -1 for a hold the poller took from the dashboard (SEEN_HOLD)
   */
  stale_closes: number;
  /**
   * A move's old hold (POST /user/tun/move): the node the tunnel left while the session `moved_run_id`
   * held its proxy there. frps there keeps serving it until that session drops it, so that
   * session's heartbeats and work connections on that node are refused (plugin.ts heldBlock).
   * Persisted and streamed: any process, after a restart, and the old node's agent refuse it.
   * Absent or null: none.
   */
  moved_node_id?: number | null;
  moved_run_id?: string | null;
  /** 访客防护: lists, ban rule and the console's bans (shield.ts); absent or null: none */
  shield?: TunnelShield | null;
  /** 定时开放 (schedule.ts): outside it the tunnel is refused and its session cut; absent or null: always open */
  schedule?: TunnelSchedule | null;
  /** stcp/xtcp/sudp: the secretKey a NewProxy must carry (secret.ts); absent or null for the other types */
  secret_key?: string | null;
}

export interface UserEntry {
  uid: number;
  active: boolean;
  /** the frp access token */
  token: string;
  limits: PlanLimits | null;
  /** when the plan ends (epoch ms), null for never: compared on every call without formatting dates */
  endMs: number | null;
  /** the user's tunnels that are not deleted, by tun_id */
  tunnels: Map<number, TunnelEntry>;
  /** nodes whose sessions are to be cut so frps counts their open connections (the poller's kicks) */
  kicks: Set<number>;
  /** the custom domains the user holds (verified, or flagged within the grace period), by name */
  domains: Map<string, UsableDomain>;
}

/** Why a tunnel may not carry traffic now, or null when it may. */
export function tunnelBlock(t: TunnelEntry): string | null {
  if (t.status === TunnelStatus.Locked)
    return `隧道 ${t.tun_name} 已被锁定${t.banned_reason ? `：${t.banned_reason}` : ""}`;
  if (t.status === TunnelStatus.Deleted) return `隧道 ${t.tun_name} 已删除`;
  if (!t.enabled) return `隧道 ${t.tun_name} 已停用`;
  return null;
}

/** Whether the tunnel concerns the node: on it, or its old session still held there after a move. */
export function onNode(t: TunnelEntry, nodeId: number): boolean {
  return t.node_id === nodeId || t.moved_node_id === nodeId;
}

/** What closing the holder's proxy did to a hold (CloseProxy), see DecisionState.proxyClosed. */
export type CloseOutcome = "released" | "stale" | "other";

/**
 * A NewProxy of `runId` was allowed while no session or this one held the tunnel: it holds it
 * now. Held by it already, one more CloseProxy of its earlier proxy is still to come (frps sends
 * CloseProxy from a goroutine, so after a reconnect the old proxy's close can follow this call);
 * that close then leaves the hold (closeHold). A hold the poller took from the dashboard counts
 * none: it saw this proxy. The console's database keeps the same count (tunnels/sessions.ts).
 */
export function openHold(t: TunnelEntry, runId: string): void {
  if (t.run_id === runId && t.stale_closes >= 0) t.stale_closes++;
  else {
    t.run_id = runId;
    t.stale_closes = 0;
  }
  if (t.status === TunnelStatus.Offline) t.status = TunnelStatus.Connected;
}

/**
 * A CloseProxy of `runId`: "stale" when it is the close of an earlier proxy of the holder still
 * to come (the hold stays), "released" when it ends the hold (or there was none), "other" when
 * another session holds the tunnel (it stays).
 */
export function closeHold(t: TunnelEntry, runId: string): CloseOutcome {
  if (t.run_id !== null && t.run_id !== runId) return "other";
  if (t.run_id !== null && t.stale_closes > 0) {
    t.stale_closes--;
    return "stale";
  }
  t.run_id = null;
  t.stale_closes = 0;
  if (t.status === TunnelStatus.Connected) t.status = TunnelStatus.Offline;
  return "released";
}

/** Why the customer may not use frp now (banned, no plan, plan ended, quota spent), or null. */
export function userBlock(entry: UserEntry, now: number): string | null {
  if (!entry.active) return "账号已被封禁";
  const limits = entry.limits;
  if (!limits) return "没有生效中的套餐";
  if (entry.endMs !== null && entry.endMs <= now) return "套餐已过期";
  if (!limits.usable) return limits.reason ?? "流量已用尽";
  return null;
}
