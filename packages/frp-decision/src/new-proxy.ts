/** NewProxy's content against the tunnel the console knows (type, port, domains) and the answer's limits. */
import { isSecretProtocol, type NewProxyContent, parseFrpProxyName } from "@burrow/contract";
import type { TunnelEntry, UserEntry } from "./entries";
import { bandwidthQuantity, domainBlock } from "./plugin-rules";
import { expectedPort } from "./port-range";
import { namedProxyType, secretProxyProblem } from "./secret";

/**
 * The request's content, whole, with the remote port and the bandwidth limit set, or with no
 * limit (one the client sent must not linger). It is changed in place: the body was parsed for
 * this request alone, and a copy through object rest/spread costs several microseconds on every
 * NewProxy (V8 builds it in dictionary mode, which then also serialises slowly).
 */
export function withLimits(c: NewProxyContent, remotePort: number | undefined, mbps: number): NewProxyContent {
  if (c.remote_port !== remotePort) c.remote_port = remotePort;
  if (mbps > 0) {
    c.bandwidth_limit = bandwidthQuantity(mbps);
    c.bandwidth_limit_mode = "server";
  } else if (c.bandwidth_limit !== undefined || c.bandwidth_limit_mode !== undefined) {
    delete c.bandwidth_limit;
    delete c.bandwidth_limit_mode;
  }
  return c;
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a.map((s) => s.toLowerCase()))].sort();
  const y = [...new Set(b.map((s) => s.toLowerCase()))].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * The remote port the proxy is to listen on (undefined: none), or why its type, port or domains
 * are not the tunnel's. A number or a string, no object: this runs on every NewProxy.
 */
export function proxyPort(user: UserEntry, t: TunnelEntry, c: NewProxyContent): number | undefined | string {
  const type = c.proxy_type || "tcp";
  const want = namedProxyType(t, c.proxy_name);
  if (typeof want === "string") return want;
  if (type !== want.type) return `隧道 ${t.tun_name} 的类型应为 ${want.type}，配置中是 ${type}`;
  if (t.protocol === "tcp" || t.protocol === "udp") {
    // A port range's proxy names its port; that port is the one it must listen on.
    const port = expectedPort(t, parseFrpProxyName(c.proxy_name)?.port);
    if (typeof port === "string") return port;
    if (!c.remote_port) return port ?? undefined;
    if (c.remote_port !== port)
      return `隧道 ${t.tun_name} 的远程端口应为 ${port}（配置为 ${c.remote_port}），请重新下载配置文件`;
    return c.remote_port;
  }
  if (isSecretProtocol(t.protocol)) return secretProxyProblem(t, c) ?? c.remote_port;
  if (!sameSet(c.custom_domains ?? [], t.custom_domains))
    return `隧道 ${t.tun_name} 的自定义域名与控制台不一致，请重新下载配置文件`;
  const domainBlocked = domainBlock(user, t, Date.now());
  if (domainBlocked) return domainBlocked;
  if ((c.subdomain ?? "").toLowerCase() !== (t.subdomain ?? ""))
    return `隧道 ${t.tun_name} 的子域名与控制台不一致，请重新下载配置文件`;
  return c.remote_port;
}
