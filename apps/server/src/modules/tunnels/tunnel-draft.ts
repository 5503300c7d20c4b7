import {
  isSecretProtocol,
  MASKED_PASSWORD,
  NodeStatus,
  portCount,
  type TunnelAddon,
  type TunnelView,
} from "@burrow/contract";
import type { DomainNames } from "../../context";
import { invalid, refused } from "../../shared/errors";
import type { NodeRow } from "../nodes/nodes.table";
import type { PlanLimits } from "../subscriptions/quota";
import { rangeProblemOn } from "./port-range";
import { tunnelAddon } from "./tunnels.presenter";
import type { TunnelRow } from "./tunnels.table";

/* A tunnel as a customer or an operator asks for it, checked against the node and the plan. */

/** The shape a tunnel has after a create or edit, before it is written: the view's own fields. */
export type TunnelDraft = Pick<
  TunnelView,
  | "tun_name"
  | "protocol"
  | "local_ip"
  | "local_port"
  | "remote_port"
  | "remote_port_end"
  | "custom_domains"
  | "subdomain"
  | "use_encryption"
  | "use_compression"
  | "bandwidth"
  | "addon"
  | "enabled"
  | "proxy_protocol"
>;

export const isWeb = (p: string) => p === "http" || p === "https";
/** tcp and udp tunnels hold a public port on the node; web and secret tunnels none. */
export const holdsPort = (p: string) => p === "tcp" || p === "udp";

/** Drops empty addon fields so that stored addons stay minimal. */
export function cleanAddon(a: TunnelAddon | undefined): TunnelAddon {
  const out: TunnelAddon = {};
  if (!a) return out;
  if (a.host_header_rewrite) out.host_header_rewrite = a.host_header_rewrite;
  if (a.http_user) out.http_user = a.http_user;
  if (a.http_password) out.http_password = a.http_password;
  if (a.locations?.length) out.locations = [...new Set(a.locations)];
  return out;
}

/** An operator's addon with the masked password (see presentAdminTunnel) put back to the stored one. */
export function unmaskAddon(a: TunnelAddon, cur: Pick<TunnelRow, "addon">): TunnelAddon {
  return a.http_password === MASKED_PASSWORD ? { ...a, http_password: tunnelAddon(cur).http_password } : a;
}

/**
 * Rules that depend on the node and the plan (the schema already checked each field alone and
 * put every custom domain in its canonical form). `names`: the provider's own names and the rules
 * a claimed name must pass (the domains module's, through ctx.domains).
 */
export function checkDraft(
  draft: TunnelDraft,
  node: NodeRow,
  limits: PlanLimits,
  levelOfNode: number,
  names: DomainNames,
): void {
  if (node.status === NodeStatus.OffShelf) throw invalid("node_id", "节点已下架");
  if (levelOfNode > limits.level)
    throw refused(`套餐等级不足：该节点需要等级 ${levelOfNode}，当前套餐等级 ${limits.level}（level）`);
  if (draft.protocol === "http" && !node.vhost_http_port) throw invalid("protocol", "该节点不支持 http 隧道");
  if (draft.protocol === "https" && !node.vhost_https_port) throw invalid("protocol", "该节点不支持 https 隧道");
  if (isWeb(draft.protocol)) {
    if (draft.subdomain && !node.subdomain_host) throw invalid("subdomain", "该节点不支持子域名，请使用自定义域名");
    // A subdomain that spells one of the provider's own names (the console, another node's host).
    const full = draft.subdomain ? `${draft.subdomain}.${node.subdomain_host}` : null;
    if (full && names.hosts.includes(full)) throw invalid("subdomain", `${full} 是服务商保留的域名，请换一个子域名`);
    const under = node.subdomain_host
      ? draft.custom_domains.find((d) => d === node.subdomain_host || d.endsWith(`.${node.subdomain_host}`))
      : undefined;
    // frps refuses a custom domain under its own subDomainHost (frp-protocol.md §3.5).
    if (under) throw invalid("custom_domains", `${under} 属于节点子域名，请改用子域名字段`);
    // Nor may a customer claim the provider's other names (other nodes, the console).
    for (const d of draft.custom_domains) {
      const refusal = names.refusal(d);
      if (refusal) throw invalid("custom_domains", `${d} ${refusal}`);
    }
    if (!draft.custom_domains.length && !draft.subdomain) throw invalid("custom_domains", "请填写自定义域名或子域名");
    if (new Set(draft.custom_domains).size !== draft.custom_domains.length)
      throw invalid("custom_domains", "自定义域名重复");
  } else if (draft.remote_port && (draft.remote_port < node.port_min || draft.remote_port > node.port_max)) {
    throw invalid("remote_port", `远程端口须在 ${node.port_min}-${node.port_max} 之间`);
  }
  if (draft.remote_port_end != null && !isWeb(draft.protocol)) {
    // The schema checked the ends alone; an edit may move one end against the stored other.
    const problem = rangeProblemOn({ ...draft, remote_port_end: draft.remote_port_end }, node);
    if (problem) throw invalid("remote_port_end", problem);
  }
  if (Object.keys(draft.addon).length && draft.protocol !== "http")
    throw invalid("addon", "附加选项仅适用于 http 隧道");
  // frpc writes the header on tcp-carried work connections (tcp, http, https); Burrow offers no udp one.
  if (draft.proxy_protocol !== "off" && (draft.protocol === "udp" || isSecretProtocol(draft.protocol)))
    throw invalid("proxy_protocol", "PROXY 协议仅适用于 tcp、http、https 隧道");
  checkPeerLimit(draft, limits);
  if (draft.bandwidth > 0 && limits.bandwidth > 0 && draft.bandwidth > limits.bandwidth)
    throw refused(`超出套餐带宽：最多 ${limits.bandwidth} Mbps（bandwidth）`);
  if (draft.bandwidth > 0 && node.bandwidth > 0 && draft.bandwidth > node.bandwidth)
    throw refused(`超出节点带宽：最多 ${node.bandwidth} Mbps（bandwidth）`);
}

/**
 * The plan's tunnel_peer_port_limit: a web tunnel's domains, a tcp/udp tunnel's ports (each port
 * of a range is one frp proxy). Also checked when a tunnel is only turned on: the plan may have
 * shrunk since, and the plugin would refuse it at every NewProxy with nothing said here.
 */
export function checkPeerLimit(draft: TunnelDraft, limits: PlanLimits): void {
  const entries = isWeb(draft.protocol)
    ? draft.custom_domains.length + (draft.subdomain ? 1 : 0)
    : portCount(draft.remote_port, draft.remote_port_end ?? null);
  if (limits.tunnel_peer_port_limit > 0 && entries > limits.tunnel_peer_port_limit)
    throw refused(`超出套餐限制：每条隧道最多 ${limits.tunnel_peer_port_limit} 个端口或域名（tunnel_peer_port_limit）`);
}

export function draftValues(draft: TunnelDraft) {
  return {
    tun_name: draft.tun_name,
    protocol: draft.protocol,
    local_ip: draft.local_ip,
    local_port: draft.local_port,
    remote_port: holdsPort(draft.protocol) ? draft.remote_port : null,
    remote_port_end: draft.protocol === "tcp" || draft.protocol === "udp" ? draft.remote_port_end : null,
    custom_domains: JSON.stringify(isWeb(draft.protocol) ? draft.custom_domains : []),
    subdomain: isWeb(draft.protocol) ? draft.subdomain : null,
    use_encryption: draft.use_encryption ? 1 : 0,
    use_compression: draft.use_compression ? 1 : 0,
    bandwidth: draft.bandwidth,
    addon: JSON.stringify(draft.addon),
    enabled: draft.enabled ? 1 : 0,
    proxy_protocol: draft.proxy_protocol,
  };
}
