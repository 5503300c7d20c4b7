import {
  type AdminNodeDetail,
  type AdminNodeRow,
  type NodeSummary,
  nodeListen,
  type TunnelProtocol,
} from "@burrow/contract";
import { extend } from "../../shared/rows";
import type { NodeJoinedRow } from "./nodes.repository";

/** The protocols a node offers: tcp and udp always, http/https when frps has the vhost port. */
export function nodeProtocols(n: {
  vhost_http_port: number | null;
  vhost_https_port: number | null;
}): TunnelProtocol[] {
  const out: TunnelProtocol[] = ["tcp", "udp"];
  if (n.vhost_http_port) out.push("http");
  if (n.vhost_https_port) out.push("https");
  return out;
}

function proxyCounts(json: string | null): Record<string, number> {
  try {
    const v = JSON.parse(json ?? "{}") as unknown;
    return v && typeof v === "object" ? (v as Record<string, number>) : {};
  } catch {
    return {};
  }
}

/** What customers and operators both see; never a secret. */
export function presentNodeSummary(n: NodeJoinedRow): NodeSummary {
  const counts = proxyCounts(n.rt_proxy_counts);
  return {
    node_id: n.node_id,
    name: n.name,
    area_id: n.area_id,
    area_name: n.area_name ?? "",
    icp_required: Number(n.icp_required ?? 0),
    net_type_id: n.net_type_id,
    net_type_name: n.net_type_name ?? "",
    level_id: n.level_id,
    level_name: n.level_name ?? "",
    level: n.level ?? 0,
    ...nodeListen(n),
    bandwidth: n.bandwidth,
    status: n.status,
    protocols: nodeProtocols(n),
    description: n.description,
    sort: n.sort,
    load: {
      clients: Number(n.rt_clients ?? 0),
      proxies: Object.values(counts).reduce((a, b) => a + Number(b || 0), 0),
      cur_conns: Number(n.rt_cur_conns ?? 0),
      tunnels: Number(n.tunnel_count ?? 0),
    },
  };
}

/** The agent's grace as stored (its own report), or null for anything else. */
const graceOf = (v: string | null | undefined): "entered" | "expired" | null =>
  v === "entered" || v === "expired" ? v : null;

/** An operator's list row: the summary plus the dashboard address and the poller's snapshot. */
export function presentAdminNode(n: NodeJoinedRow): AdminNodeRow {
  return extend(presentNodeSummary(n), {
    agent_mode: n.agent_mode,
    api_addr: n.api_addr,
    api_user: n.api_user,
    runtime: {
      version: n.rt_version ?? null,
      traffic_in: Number(n.rt_traffic_in ?? 0),
      traffic_out: Number(n.rt_traffic_out ?? 0),
      proxy_type_count: proxyCounts(n.rt_proxy_counts),
      last_poll_at: n.rt_last_poll_at ?? null,
      last_error: n.rt_last_error ?? null,
      rollover_skew_at: n.rt_rollover_skew_at ?? null,
      agent_seen_at: n.rt_agent_seen_at ?? null,
      agent_grace: graceOf(n.rt_agent_grace),
      agent_grace_at: n.rt_agent_grace_at ?? null,
    },
    created_at: n.created_at,
  });
}

/** The Manager's detail view, secrets included. */
export function presentAdminNodeDetail(n: NodeJoinedRow): AdminNodeDetail {
  return extend(presentAdminNode(n), { api_password: n.api_password, plugin_secret: n.plugin_secret });
}
