import type {
  CreateTunnelBody,
  ProxyProtocol,
  TunnelAddon,
  TunnelProtocol,
  TunnelView,
  UpdateTunnelBody,
} from "@burrow/contract";
import { isSecretProtocol } from "@burrow/contract";

/** The tunnel form's values: the addon's options are top-level fields (one error per field). */
export interface TunnelFormValues {
  tun_name: string;
  node_id: number;
  protocol: TunnelProtocol;
  local_ip: string;
  local_port: number;
  /** tcp/udp: let the server pick a free port in the node's range */
  random_port?: boolean;
  remote_port?: number | null;
  /** tcp/udp 端口范围: the range's last port, empty = one port */
  remote_port_end?: number | null;
  custom_domains?: string[];
  subdomain?: string;
  use_encryption?: boolean;
  use_compression?: boolean;
  /** Mbps, 0 or empty = the plan's */
  bandwidth?: number | null;
  host_header_rewrite?: string;
  http_user?: string;
  http_password?: string;
  locations?: string[];
  /** tcp/http/https: the PROXY protocol header for the local service */
  proxy_protocol?: ProxyProtocol;
}

/** Server field → form field, for errors the server reports on the addon's parts. */
export const TUNNEL_FIELD_MAP: Record<string, string> = {
  "addon.host_header_rewrite": "host_header_rewrite",
  "addon.http_user": "http_user",
  "addon.http_password": "http_password",
  "addon.locations": "locations",
  addon: "host_header_rewrite",
};

/** What a new tunnel's form starts with. */
export const NEW_TUNNEL: Partial<TunnelFormValues> = {
  protocol: "tcp",
  local_ip: "127.0.0.1",
  random_port: true,
  use_encryption: false,
  use_compression: false,
  custom_domains: [],
  locations: [],
  proxy_protocol: "off",
};

export const isWebProtocol = (p: string | undefined) => p === "http" || p === "https";
/** stcp/xtcp/sudp: no remote port, no domain (docs/secret-tunnels.md) */
export const isSecretForm = (p: string | undefined) => !!p && isSecretProtocol(p);

const cleanList = (list: string[] | undefined) => [
  ...new Set((list ?? []).map((s) => s.trim().toLowerCase()).filter(Boolean)),
];

/** The http tunnel's extra options, blanks dropped; undefined for other protocols. */
export function addonOf(v: TunnelFormValues): TunnelAddon | undefined {
  if (v.protocol !== "http") return undefined;
  const addon: TunnelAddon = {};
  const host = v.host_header_rewrite?.trim();
  if (host) addon.host_header_rewrite = host;
  if (v.http_user?.trim()) addon.http_user = v.http_user.trim();
  if (v.http_password) addon.http_password = v.http_password;
  const locations = [...new Set((v.locations ?? []).map((s) => s.trim()).filter(Boolean))];
  if (locations.length) addon.locations = locations;
  return addon;
}

/** The fields a protocol uses: a remote port (0 = random) for tcp/udp, domains for http(s). */
function endpointOf(v: TunnelFormValues) {
  if (isWebProtocol(v.protocol)) {
    return { custom_domains: cleanList(v.custom_domains), subdomain: v.subdomain?.trim().toLowerCase() || undefined };
  }
  return v.random_port
    ? { remote_port: 0, remote_port_end: null }
    : { remote_port: v.remote_port ?? 0, remote_port_end: v.remote_port_end ?? null };
}

/** POST /user/tun from the form. */
export function toCreateBody(v: TunnelFormValues): CreateTunnelBody {
  const addon = addonOf(v);
  return {
    tun_name: v.tun_name.trim(),
    node_id: v.node_id,
    protocol: v.protocol,
    local_ip: v.local_ip.trim(),
    local_port: v.local_port,
    // secret tunnels have neither a remote port nor a domain
    ...(isSecretForm(v.protocol) ? {} : endpointOf(v)),
    use_encryption: !!v.use_encryption,
    use_compression: !!v.use_compression,
    bandwidth: v.bandwidth ?? 0,
    ...(addon ? { addon } : {}),
    proxy_protocol: proxyProtocolOf(v),
  };
}

/** udp carries no PROXY protocol header (the field is not shown there). */
const proxyProtocolOf = (v: TunnelFormValues): ProxyProtocol =>
  v.protocol === "udp" || isSecretForm(v.protocol) ? "off" : (v.proxy_protocol ?? "off");

/** PATCH /user/tun from the edit form (node and protocol are fixed; a blank subdomain removes it). */
export function toUpdateBody(tunId: number, v: TunnelFormValues): UpdateTunnelBody {
  const endpoint = endpointOf(v);
  const addon = addonOf(v);
  return {
    tun_id: tunId,
    tun_name: v.tun_name.trim(),
    local_ip: v.local_ip.trim(),
    local_port: v.local_port,
    ...(isSecretForm(v.protocol)
      ? {}
      : isWebProtocol(v.protocol)
        ? { custom_domains: endpoint.custom_domains, subdomain: endpoint.subdomain ?? null }
        : { remote_port: endpoint.remote_port, remote_port_end: endpoint.remote_port_end }),
    use_encryption: !!v.use_encryption,
    use_compression: !!v.use_compression,
    bandwidth: v.bandwidth ?? 0,
    ...(addon ? { addon } : {}),
    proxy_protocol: proxyProtocolOf(v),
  };
}

/** The edit form's values for a tunnel. */
export function tunnelToForm(t: TunnelView): TunnelFormValues {
  return {
    tun_name: t.tun_name,
    node_id: t.node_id,
    protocol: t.protocol,
    local_ip: t.local_ip,
    local_port: t.local_port,
    random_port: false,
    remote_port: t.remote_port,
    remote_port_end: t.remote_port_end,
    custom_domains: t.custom_domains,
    subdomain: t.subdomain ?? "",
    use_encryption: t.use_encryption,
    use_compression: t.use_compression,
    bandwidth: t.bandwidth,
    host_header_rewrite: t.addon.host_header_rewrite ?? "",
    http_user: t.addon.http_user ?? "",
    http_password: t.addon.http_password ?? "",
    locations: t.addon.locations ?? [],
    proxy_protocol: t.proxy_protocol,
  };
}
