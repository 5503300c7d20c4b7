import {
  type AdminTunnelRow,
  formatPorts,
  frpProxyName,
  isSecretProtocol,
  MASKED_PASSWORD,
  type ProxyProtocol,
  type TunnelAddon,
  type TunnelDetail,
  type TunnelProtocol,
  type TunnelView,
} from "@burrow/contract";
import { parseJson } from "../../shared/json";
import { extend } from "../../shared/rows";
import { shownPhone } from "../users/users.presenter";
import { presentSchedule } from "./schedule-view";
import { type TunnelJoinedRow, tunnelDomains } from "./tunnels.repository";
import type { TunnelRow } from "./tunnels.table";

/** A tunnel's custom domains (stored as JSON). */
export const tunnelCustomDomains = (t: Pick<TunnelRow, "custom_domains">): string[] =>
  parseJson<string[]>(t.custom_domains, []);
/** A tunnel's addon options (stored as JSON). */
export const tunnelAddon = (t: Pick<TunnelRow, "addon">): TunnelAddon => parseJson<TunnelAddon>(t.addon, {});

/** What a customer shares: host:port for tcp/udp, URLs (with the vhost port when not the default) for http(s). */
export function tunnelAddresses(
  t: {
    protocol: string;
    remote_port: number | null;
    remote_port_end?: number | null;
    custom_domains: string[];
    subdomain: string | null;
  },
  node: { host: string; http_port: number | null; https_port: number | null; subdomain_host: string | null },
): string[] {
  if (t.protocol === "tcp" || t.protocol === "udp")
    return t.remote_port ? [`${node.host}:${formatPorts(t.remote_port, t.remote_port_end ?? null)}`] : [];
  // A secret tunnel has no public address: it is reached through a visitor frpc.
  if (isSecretProtocol(t.protocol)) return [];
  const https = t.protocol === "https";
  const port = https ? node.https_port : node.http_port;
  const suffix = port && port !== (https ? 443 : 80) ? `:${port}` : "";
  return tunnelDomains(t, node.subdomain_host).map((d) => `${https ? "https" : "http"}://${d}${suffix}`);
}

/** A tunnel as its owner sees it. */
export function presentTunnel(r: TunnelJoinedRow): TunnelView {
  const custom_domains = tunnelCustomDomains(r);
  return {
    tun_id: r.tun_id,
    tun_name: r.tun_name,
    uid: r.uid,
    node_id: r.node_id,
    node_name: r.node_name,
    protocol: r.protocol as TunnelProtocol,
    local_ip: r.local_ip,
    local_port: r.local_port,
    remote_port: r.remote_port,
    remote_port_end: r.remote_port_end,
    custom_domains,
    subdomain: r.subdomain,
    use_encryption: r.use_encryption === 1,
    use_compression: r.use_compression === 1,
    bandwidth: r.bandwidth,
    enabled: r.enabled === 1,
    status: r.status,
    banned_reason: r.banned_reason,
    addon: tunnelAddon(r),
    proxy_protocol: r.proxy_protocol as ProxyProtocol,
    proxy_name: frpProxyName(r.uid, r.tun_id),
    addresses: tunnelAddresses(
      {
        protocol: r.protocol,
        remote_port: r.remote_port,
        remote_port_end: r.remote_port_end,
        custom_domains,
        subdomain: r.subdomain,
      },
      {
        host: r.node_host,
        http_port: r.node_http_port,
        https_port: r.node_https_port,
        subdomain_host: r.node_subdomain_host,
      },
    ),
    traffic_in: Number(r.traffic_in),
    traffic_out: Number(r.traffic_out),
    today_in: Number(r.today_in ?? 0),
    today_out: Number(r.today_out ?? 0),
    last_online_at: r.last_online_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    ...presentSchedule(r),
  };
}

/** The detail page: the view plus the node's address and live connection count. */
export function presentTunnelDetail(r: TunnelJoinedRow): TunnelDetail {
  return {
    ...presentTunnel(r),
    node: { host: r.node_host, bind_port: r.node_bind_port, status: r.node_status },
    cur_conns: Number(r.cur_conns ?? 0),
    // Only here, on the owner's own detail: lists and the operators' rows never carry it.
    secret_key: r.secret_key ?? null,
  };
}

/** An operator's row: the view plus the owner and live connections. */
export function presentAdminTunnel(r: TunnelJoinedRow): AdminTunnelRow {
  const view = presentTunnel(r);
  return extend(view, {
    // The customer's basic-auth password is theirs: operators see that one is set, not what it is.
    addon: view.addon.http_password ? { ...view.addon, http_password: MASKED_PASSWORD } : view.addon,
    phone: shownPhone(r.owner_phone),
    nickname: r.owner_nickname ?? "",
    cur_conns: Number(r.cur_conns ?? 0),
  });
}
