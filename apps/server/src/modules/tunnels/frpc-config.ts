import {
  fileSafeDomain,
  frpFallbackProxyLocalName,
  frpProxyLocalName,
  frpUserName,
  type TunnelConfig,
  TunnelStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { notFound, refused } from "../../shared/errors";
import { tomlLine } from "../../shared/toml";
import { certificateForDomains } from "../ssl/ssl.repository";
import { portProxies, rangeProxyName } from "./port-range";
import { tunnelAddon, tunnelCustomDomains } from "./tunnels.presenter";
import type { TunnelRow } from "./tunnels.table";

/** frpc heartbeat period (s). Burrow refuses a heartbeat to cut a client off, so it must be on. */
export const FRPC_HEARTBEAT_INTERVAL = 30;
/** Must be ≥ the interval (frpc verify); frps.toml uses the same value. */
export const FRPC_HEARTBEAT_TIMEOUT = 90;

export interface FrpcConfigInput {
  node: { node_id: number; name: string; host: string; bind_port: number };
  uid: number;
  frpToken: string;
  tunnels: TunnelRow[];
  /** https tunnels whose custom domain has a certificate (ssl module): tun_id → that domain */
  certDomains?: Map<number, string>;
}

/**
 * frpc's https2http client plugin for an https tunnel whose custom domain has a certificate:
 * frpc terminates TLS with the customer's certificate (files next to frpc, docs/ssl.md) and
 * forwards plain HTTP to the local service (https2https when that service speaks TLS itself).
 */
function httpsPluginLines(t: TunnelRow, domain: string): string[] {
  return [
    "# 已为该域名配置证书：frpc 使用下面的证书终止 HTTPS，再以 HTTP 转发到本地服务；",
    '# 本地服务本身是 HTTPS 时把 type 改为 "https2https"。证书文件请从控制台“SSL 证书”页下载。',
    "[proxies.plugin]",
    ...tomlLine("type", "https2http"),
    ...tomlLine("localAddr", `${t.local_ip}:${t.local_port}`),
    ...tomlLine("crtPath", `./certs/${fileSafeDomain(domain)}/fullchain.pem`),
    ...tomlLine("keyPath", `./certs/${fileSafeDomain(domain)}/privkey.pem`),
  ];
}

/** One `[[proxies]]` block; `name` given for a tunnel's second proxy (a range's port, xtcp's fallback). */
function proxyLines(t: TunnelRow, certDomain?: string, name?: { name: string; note: string }): string[] {
  const addon = tunnelAddon(t);
  const domains = tunnelCustomDomains(t);
  return [
    "",
    `# 隧道 ${JSON.stringify(t.tun_name)}（#${t.tun_id}）${name?.note ?? ""}`,
    "[[proxies]]",
    // One port of a range (portProxies): its own proxy name.
    ...tomlLine("name", name?.name ?? (t.remote_port_end ? rangeProxyName(t) : frpProxyLocalName(t.tun_id))),
    ...tomlLine("type", t.protocol),
    ...tomlLine("localIP", t.local_ip),
    ...tomlLine("localPort", t.local_port),
    ...tomlLine("remotePort", t.remote_port),
    ...(domains.length ? tomlLine("customDomains", domains) : []),
    ...tomlLine("subdomain", t.subdomain),
    // stcp/xtcp/sudp: visitors must present it (secret-tunnels.ts writes their side).
    ...tomlLine("secretKey", t.secret_key),
    ...(t.protocol === "http" && addon.locations?.length ? tomlLine("locations", addon.locations) : []),
    ...(t.protocol === "http" ? tomlLine("httpUser", addon.http_user) : []),
    ...(t.protocol === "http" ? tomlLine("httpPassword", addon.http_password) : []),
    ...(t.protocol === "http" ? tomlLine("hostHeaderRewrite", addon.host_header_rewrite) : []),
    ...(t.use_encryption ? tomlLine("transport.useEncryption", true) : []),
    ...(t.use_compression ? tomlLine("transport.useCompression", true) : []),
    // frpc puts a PROXY protocol header with the visitor's address before the visitor's bytes.
    ...(t.proxy_protocol === "v1" || t.proxy_protocol === "v2"
      ? tomlLine("transport.proxyProtocolVersion", t.proxy_protocol)
      : []),
    ...tomlLine("metadatas.tunnel_id", String(t.tun_id)),
    // A sub-table ends the proxy's own keys: it comes last.
    ...(t.protocol === "https" && certDomain ? httpsPluginLines(t, certDomain) : []),
  ];
}

/**
 * A tunnel's proxies: one per port of a range (portProxies); an xtcp tunnel's own and its relay
 * fallback, an stcp proxy with the same secret that the visitor's xtcp visitor falls back to when
 * hole punching fails (secret-tunnels.ts writes that side; docs/secret-tunnels.md).
 */
function tunnelProxyLines(t: TunnelRow, certDomain?: string): string[] {
  if (t.protocol === "xtcp")
    return [
      ...proxyLines(t),
      ...proxyLines({ ...t, protocol: "stcp" }, undefined, {
        name: frpFallbackProxyLocalName(t.tun_id),
        note: "：打洞失败时经节点中转的 stcp 备用通道（流量计入本隧道）",
      }),
    ];
  return portProxies(t).flatMap((p) => proxyLines(p, certDomain));
}

/**
 * A complete frpc.toml: the node's address, `user` and `metadatas.token` (the customer's frp
 * access token, which the plugin checks on every op), heartbeats on, and one `[[proxies]]` per
 * tunnel named "t_<tun_id>" — frpc sends it as "u_<uid>.t_<tun_id>", which maps back to the tunnel.
 */
export function buildFrpcToml(input: FrpcConfigInput): string {
  const { node } = input;
  const lines = [
    // Comments in Chinese, like the console that hands the file out; names quoted so that a line
    // break in one could not end the comment.
    `# 节点 ${JSON.stringify(node.name)}（#${node.node_id}）的 frpc 配置文件，由控制台生成。`,
    "# 请保留心跳设置：服务在每次心跳时核验账户与套餐，关闭心跳会导致连接被断开。",
    "# metadatas.token 是你的访问密钥，请勿泄露；在控制台重置后需重新下载本文件。",
    ...tomlLine("serverAddr", node.host),
    ...tomlLine("serverPort", node.bind_port),
    ...tomlLine("user", frpUserName(input.uid)),
    ...tomlLine("metadatas.token", input.frpToken),
    ...tomlLine("loginFailExit", false),
    ...tomlLine("transport.heartbeatInterval", FRPC_HEARTBEAT_INTERVAL),
    ...tomlLine("transport.heartbeatTimeout", FRPC_HEARTBEAT_TIMEOUT),
    ...input.tunnels.flatMap((t) => tunnelProxyLines(t, input.certDomains?.get(t.tun_id))),
    "",
  ];
  return lines.join("\n");
}

/** Run commands for a config saved as `file` next to the frpc binary. */
export function runCommands(file: string): TunnelConfig["commands"] {
  return {
    windows: `.\\frpc.exe -c .\\${file}`,
    macos: `xattr -d com.apple.quarantine ./frpc 2>/dev/null; chmod +x ./frpc && ./frpc -c ./${file}`,
    linux: `chmod +x ./frpc && ./frpc -c ./${file}`,
  };
}

/**
 * frpc configuration for one of the customer's tunnels (tun_id) or for all of them on one node
 * (node_id; locked tunnels left out — frps would refuse them). Disabled tunnels stay in: frps
 * refuses them until they are turned back on, and then frpc's own retry brings them up.
 */
export async function tunnelConfig(
  ctx: AppContext,
  uid: number,
  q: { tun_id?: number; node_id?: number },
): Promise<TunnelConfig> {
  let sel = ctx.db
    .selectFrom("tunnels")
    .selectAll()
    .where("uid", "=", uid)
    .where("status", "<>", TunnelStatus.Deleted)
    .orderBy("tun_id");
  sel = q.tun_id ? sel.where("tun_id", "=", q.tun_id) : sel.where("node_id", "=", q.node_id ?? 0);
  let tunnels = await sel.execute();
  if (q.tun_id) {
    if (!tunnels.length) throw notFound("隧道");
    if (tunnels[0].status === TunnelStatus.Locked)
      throw refused(`隧道已被锁定：${tunnels[0].banned_reason ?? ""}`.trim());
  } else {
    tunnels = tunnels.filter((t) => t.status !== TunnelStatus.Locked);
    if (!tunnels.length) throw notFound("该节点上的可用隧道");
  }
  const nodeId = tunnels[0].node_id;
  const [node, user] = await Promise.all([
    ctx.db
      .selectFrom("nodes")
      .select(["node_id", "name", "host", "bind_port"])
      .where("node_id", "=", nodeId)
      .executeTakeFirst(),
    ctx.db.selectFrom("users").select("frp_token").where("uid", "=", uid).executeTakeFirstOrThrow(),
  ]);
  if (!node) throw notFound("节点");
  const certDomains = new Map<number, string>();
  for (const t of tunnels) {
    if (t.protocol !== "https") continue;
    const cert = await certificateForDomains(ctx.db, uid, tunnelCustomDomains(t));
    if (cert) certDomains.set(t.tun_id, cert.domain);
  }
  const filename = q.tun_id ? `frpc_t${q.tun_id}.toml` : `frpc_node${node.node_id}.toml`;
  return {
    scope: q.tun_id ? "tunnel" : "node",
    node_id: node.node_id,
    node_name: node.name,
    filename,
    toml: buildFrpcToml({ node, uid, frpToken: user.frp_token, tunnels, certDomains }),
    commands: runCommands(filename),
    tun_ids: tunnels.map((t) => t.tun_id),
  };
}
