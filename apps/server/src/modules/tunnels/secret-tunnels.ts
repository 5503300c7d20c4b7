import { randomBytes } from "node:crypto";
import {
  frpFallbackProxyLocalName,
  frpProxyLocalName,
  frpUserName,
  isSecretProtocol,
  type TunnelConfig,
  type TunnelDetail,
  TunnelStatus,
  type UpdateTunnelBody,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import { invalid, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { nowIso } from "../../shared/time";
import { tomlLine } from "../../shared/toml";
import { transact } from "../../shared/tx";
import { buildFrpcToml, runCommands } from "./frpc-config";
import { presentTunnelDetail } from "./tunnels.presenter";
import { findOwnTunnel } from "./tunnels.repository";
import type { TunnelRow } from "./tunnels.table";

/*
 * Secret tunnels (stcp, xtcp, sudp; docs/secret-tunnels.md): frps opens no public port for them.
 * A second frpc, the visitor, logs in as the same customer and reaches the proxy by its name and
 * secret; its frpc.toml is generated here. The secret is the console's, rotatable by the owner.
 */

/** A fresh secretKey for a secret tunnel (24 URL-safe characters), null for the other types. */
export function newSecretKey(protocol: string): string | null {
  return isSecretProtocol(protocol) ? randomBytes(18).toString("base64url") : null;
}

/** An edit may not give a secret tunnel a public port or a domain. */
export function checkSecretEdit(protocol: string, body: Omit<UpdateTunnelBody, "tun_id">): void {
  if (!isSecretProtocol(protocol)) return;
  if (body.remote_port) throw invalid("remote_port", "私密隧道（stcp/xtcp/sudp）不使用远程端口");
  if (body.custom_domains?.length || body.subdomain)
    throw invalid(body.subdomain ? "subdomain" : "custom_domains", "私密隧道不使用域名");
}

/** The owner's live secret tunnel, or why not (another customer's is 404, like any tunnel of theirs). */
async function ownSecretTunnel(ctx: AppContext, uid: number, tunId: number): Promise<TunnelRow> {
  const row = await findOwnTunnel(ctx.db, uid, tunId);
  if (!row) throw notFound("隧道");
  if (!isSecretProtocol(row.protocol)) throw invalid("tunid", "只有 stcp、xtcp、sudp 隧道有密钥和访问端配置");
  if (row.status === TunnelStatus.Locked) throw refused(`隧道已被锁定：${row.banned_reason ?? ""}`.trim());
  return row;
}

/**
 * Replaces a secret tunnel's secret. The plugin refuses a NewProxy with the old one from now on
 * (tunnel.changed reloads the decision state); both frpc.toml files must be downloaded again.
 */
export async function rotateSecret(ctx: AppContext, uid: number, tunId: number): Promise<TunnelDetail> {
  await ownSecretTunnel(ctx, uid, tunId);
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const r = await trx
      .updateTable("tunnels")
      .set({ secret_key: newSecretKey("stcp"), updated_at: nowIso() })
      .where("tun_id", "=", tunId)
      .where("uid", "=", uid)
      .where("status", "not in", [TunnelStatus.Deleted, TunnelStatus.Locked])
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw notFound("隧道");
    trx.changes.emit("tunnel.changed", { tun_id: tunId, uid });
  });
  return presentTunnelDetail((await findOwnTunnel(ctx.db, uid, tunId))!);
}

/** The visitor's local port: the tunnel's own when unprivileged, else 10000 above it (no root needed). */
export const visitorBindPort = (localPort: number): number => (localPort >= 1024 ? localPort : 10000 + localPort);

/** The visitor's local name, "v_<tun_id>" (frpc prefixes it with the user as it does proxies). */
const visitorName = (tunId: number) => `v_${tunId}`;
/** The local name of an xtcp visitor's stcp fallback visitor (its `fallbackTo`). */
const fallbackVisitorName = (tunId: number) => `v_${tunId}_stcp`;
/**
 * How long an xtcp visitor's connection waits for a punched hole before it is handed to the stcp
 * fallback (frp's default; the first connection triggers the punching, so it is usually relayed).
 */
export const XTCP_FALLBACK_TIMEOUT_MS = 1000;

type VisitorTunnel = Pick<
  TunnelRow,
  "tun_id" | "uid" | "tun_name" | "protocol" | "local_port" | "secret_key" | "use_encryption" | "use_compression"
>;

/** One `[[visitors]]` table's keys every secret type shares. */
function visitorBase(t: VisitorTunnel, name: string, type: string, serverName: string): string[] {
  return [
    "[[visitors]]",
    ...tomlLine("name", name),
    ...tomlLine("type", type),
    // The serving frpc logs in as the same user; named explicitly so that frps looks up its proxy.
    ...tomlLine("serverUser", frpUserName(t.uid)),
    ...tomlLine("serverName", serverName),
    ...tomlLine("secretKey", t.secret_key),
  ];
}

/** Both ends must agree on these (frp wraps the visitor's stream the same way). */
const wrapLines = (t: VisitorTunnel): string[] => [
  ...(t.use_encryption ? tomlLine("transport.useEncryption", true) : []),
  ...(t.use_compression ? tomlLine("transport.useCompression", true) : []),
];

/**
 * The `[[visitors]]` tables of a secret tunnel, for the visitor machine's frpc.toml. An xtcp
 * visitor falls back (`fallbackTo`) to an stcp visitor of the tunnel's fallback proxy
 * ("t_<id>_stcp", frpc-config.ts) when no hole is punched within XTCP_FALLBACK_TIMEOUT_MS; that
 * visitor listens on nothing itself (bindPort -1, as frp requires of a fallback target).
 */
export function visitorLines(t: VisitorTunnel): string[] {
  const port = visitorBindPort(t.local_port);
  const lines = [
    "",
    `# 访问隧道 ${JSON.stringify(t.tun_name)}（#${t.tun_id}）：本机 127.0.0.1:${port} 即对端的本地服务`,
    ...visitorBase(t, visitorName(t.tun_id), t.protocol, frpProxyLocalName(t.tun_id)),
    ...tomlLine("bindAddr", "127.0.0.1"),
    ...tomlLine("bindPort", port),
    ...wrapLines(t),
  ];
  if (t.protocol !== "xtcp") return lines;
  return [
    ...lines,
    // The hole is punched per connection and closed when idle, as frp's default.
    ...tomlLine("keepTunnelOpen", false),
    ...tomlLine("fallbackTo", fallbackVisitorName(t.tun_id)),
    ...tomlLine("fallbackTimeoutMs", XTCP_FALLBACK_TIMEOUT_MS),
    "",
    "# 打洞失败时，连接改由节点中转（stcp，流量计入本隧道）；此访问端不单独监听端口",
    ...visitorBase(t, fallbackVisitorName(t.tun_id), "stcp", frpFallbackProxyLocalName(t.tun_id)),
    ...tomlLine("bindPort", -1),
    ...wrapLines(t),
  ];
}

/**
 * GET /user/tun/:tunid/visitor: the frpc.toml for the machine that visits a secret tunnel. It
 * logs in with the owner's own token (the plugin admits that Login like any of the owner's).
 */
export async function visitorConfig(ctx: AppContext, uid: number, tunId: number): Promise<TunnelConfig> {
  const t = await ownSecretTunnel(ctx, uid, tunId);
  const [node, user] = await Promise.all([
    ctx.db
      .selectFrom("nodes")
      .select(["node_id", "name", "host", "bind_port"])
      .where("node_id", "=", t.node_id)
      .executeTakeFirst(),
    ctx.db.selectFrom("users").select("frp_token").where("uid", "=", uid).executeTakeFirstOrThrow(),
  ]);
  if (!node) throw notFound("节点");
  const filename = `frpc_visitor_t${tunId}.toml`;
  const toml = `${buildFrpcToml({ node, uid, frpToken: user.frp_token, tunnels: [] }).trimEnd()}\n${visitorLines(t).join("\n")}\n`;
  return {
    scope: "tunnel",
    node_id: node.node_id,
    node_name: node.name,
    filename,
    toml,
    commands: runCommands(filename),
    tun_ids: [tunId],
  };
}
