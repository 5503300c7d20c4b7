import { frpProxyName, frpUserName, type NewProxyContent, parseFrpProxyName } from "@burrow/contract";
import { secretEquals, type TunnelEntry } from "./entries";

/**
 * A secret tunnel's (stcp, xtcp, sudp) NewProxy must carry the console's secret and admit no
 * visitor but the owner's own frpc: an empty `allowUsers` (frps then admits the proxy's own
 * user) or exactly that user. Another customer's name or "*" would let others' visitors in on
 * this customer's bill. Why not, or null. (docs/secret-tunnels.md)
 */
export function secretProxyProblem(t: TunnelEntry, c: NewProxyContent): string | null {
  if (!t.secret_key || !secretEquals(c.sk ?? "", t.secret_key))
    return `隧道 ${t.tun_name} 的密钥与控制台不一致，请重新下载配置文件`;
  const own = frpUserName(t.uid);
  if ((c.allow_users ?? []).some((u) => u !== own))
    return `隧道 ${t.tun_name} 只允许本账户的访问端（allowUsers 请留空）`;
  if (c.remote_port || c.custom_domains?.length || c.subdomain)
    return `隧道 ${t.tun_name} 是私密隧道，不使用远程端口或域名，请重新下载配置文件`;
  return null;
}

/**
 * The proxy type a proxy name of the tunnel must carry, or the refusal (a string). An xtcp tunnel has two
 * proxies: its own "t_<id>" (xtcp) and its relay fallback "t_<id>_stcp" (stcp, the same secret),
 * which its visitors use when hole punching fails. No other tunnel has a fallback, and only a
 * tcp/udp tunnel's names carry a port (a port range's): any other name would be a second proxy
 * of the tunnel the console never wrote.
 */
export function namedProxyType(t: TunnelEntry, proxyName: string | undefined): { type: string } | string {
  const named = parseFrpProxyName(proxyName);
  if (named?.fallback)
    return t.protocol === "xtcp" ? { type: "stcp" } : `隧道 ${t.tun_name} 不是 xtcp 隧道，没有 stcp 备用代理`;
  if (named?.port !== undefined && t.protocol !== "tcp" && t.protocol !== "udp")
    return `隧道 ${t.tun_name} 不是端口范围，代理名应为 ${frpProxyName(t.uid, t.tun_id)}，请重新下载配置文件`;
  return { type: t.protocol };
}

/**
 * A tunnel frpc serves with several proxies (a port range's ports, an xtcp tunnel and its stcp
 * fallback): one frpc session must hold them all, as the console writes them into one file.
 * Each has a name of its own, so frps would let a second session take the others, which the
 * tunnel's one hold cannot follow (a lock or a move would miss that session).
 */
export const severalProxies = (t: TunnelEntry): boolean => !!t.remote_port_end || t.protocol === "xtcp";

/** Why session `runId` may not open a proxy of the tunnel another session holds (severalProxies), or null. */
export function otherSessionProblem(t: TunnelEntry, runId: string): string | null {
  if (!severalProxies(t) || !t.run_id || t.run_id === runId) return null;
  return t.remote_port_end
    ? `隧道 ${t.tun_name} 的端口范围已由另一个 frpc 会话连接，同一范围的端口须由同一个 frpc 提供`
    : `隧道 ${t.tun_name} 已由另一个 frpc 会话连接，它的 xtcp 代理与 stcp 备用代理须由同一个 frpc 提供`;
}
