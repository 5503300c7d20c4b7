import { frpUserName, type NewProxyContent } from "@burrow/contract";
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
