import { formatPorts, frpProxyName, frpRangeProxyLocalName, frpUserName } from "@burrow/contract";
import type { TunnelEntry } from "./entries";

/**
 * The remote port a tcp/udp NewProxy of the tunnel must have, from the port its proxy name
 * carries (parseFrpProxyName): a port-range tunnel's proxies are "u_<uid>.t_<tun_id>_<port>", one
 * per port of its range (frpc-config writes them); a single-port tunnel's is "u_<uid>.t_<tun_id>".
 * A string is the refusal.
 */
export function expectedPort(t: TunnelEntry, namedPort: number | undefined): number | null | string {
  const end = t.remote_port_end ?? null;
  if (t.remote_port && end) {
    if (namedPort === undefined || namedPort < t.remote_port || namedPort > end)
      return `隧道 ${t.tun_name} 是端口范围 ${formatPorts(t.remote_port, end)}，代理名应为 ${frpUserName(t.uid)}.${frpRangeProxyLocalName(t.tun_id, t.remote_port)} 至 ${frpRangeProxyLocalName(t.tun_id, end)}，请重新下载配置文件`;
    return namedPort;
  }
  if (namedPort !== undefined)
    return `隧道 ${t.tun_name} 不是端口范围，代理名应为 ${frpProxyName(t.uid, t.tun_id)}，请重新下载配置文件`;
  return t.remote_port;
}
