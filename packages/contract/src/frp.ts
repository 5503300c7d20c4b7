/**
 * frp server-plugin envelope and content shapes (frp-protocol.md §1.5, Appendix B). Keys are the
 * snake_case keys frps sends; every field frps may omit is optional.
 */

export const FRP_PLUGIN_OPS = ["Login", "NewProxy", "CloseProxy", "Ping", "NewWorkConn", "NewUserConn"] as const;
export type PluginOp = (typeof FRP_PLUGIN_OPS)[number];

/** The plugin API version frps sends (constant for years). */
export const FRP_PLUGIN_API_VERSION = "0.1.0";

export interface PluginRequest<C = unknown> {
  version: string;
  op: PluginOp;
  content: C;
}

/**
 * What a plugin answers. Allow is `{reject:false, unchange:true}`; a missing `unchange` means
 * "replace the content with `content`" (§1.3), so every answer sets it explicitly.
 */
export interface PluginResponse<C = unknown> {
  reject: boolean;
  reject_reason?: string;
  unchange?: boolean;
  content?: C;
}

export interface PluginUserInfo {
  user: string;
  metas: Record<string, string> | null;
  run_id: string;
}

export interface LoginContent {
  version?: string;
  hostname?: string;
  os?: string;
  arch?: string;
  user?: string;
  privilege_key?: string;
  timestamp?: number;
  run_id?: string;
  client_id?: string;
  metas?: Record<string, string>;
  client_spec: { type?: string; always_auth_pass?: boolean };
  pool_count?: number;
  client_address?: string;
}

export interface NewProxyContent {
  user: PluginUserInfo;
  proxy_name?: string;
  proxy_type?: string;
  use_encryption?: boolean;
  use_compression?: boolean;
  bandwidth_limit?: string;
  bandwidth_limit_mode?: "server" | "client";
  group?: string;
  group_key?: string;
  metas?: Record<string, string>;
  annotations?: Record<string, string>;
  remote_port?: number;
  custom_domains?: string[];
  subdomain?: string;
  locations?: string[];
  http_user?: string;
  http_pwd?: string;
  host_header_rewrite?: string;
  headers?: Record<string, string>;
  response_headers?: Record<string, string>;
  route_by_http_user?: string;
  sk?: string;
  allow_users?: string[];
  multiplexer?: string;
}

export interface CloseProxyContent {
  user: PluginUserInfo;
  proxy_name?: string;
}

export interface PingContent {
  user: PluginUserInfo;
  privilege_key?: string;
  timestamp?: number;
}

export interface NewWorkConnContent {
  user: PluginUserInfo;
  run_id?: string;
  privilege_key?: string;
  timestamp?: number;
}

export interface NewUserConnContent {
  user: PluginUserInfo;
  proxy_name: string;
  proxy_type: string;
  remote_addr: string;
}

/**
 * The frpc `user` Burrow puts in a customer's config. frpc prefixes every proxy name with
 * "{user}.", so it must not contain a dot.
 */
export const frpUserName = (uid: number): string => `u_${uid}`;

/** The frpc-side proxy `name` of a tunnel; it never changes when the tunnel is renamed. */
export const frpProxyLocalName = (tunId: number): string => `t_${tunId}`;

/** The proxy name frps sees (plugin `proxy_name`, dashboard `name`): "u_<uid>.t_<tun_id>". */
export const frpProxyName = (uid: number, tunId: number): string => `${frpUserName(uid)}.${frpProxyLocalName(tunId)}`;

/** The uid of an frpc `user` made by frpUserName, or null. */
export function parseFrpUser(user: string | undefined): number | null {
  const m = user ? /^u_([1-9]\d{0,14})$/.exec(user) : null;
  return m ? Number(m[1]) : null;
}

/**
 * The frpc-side name of an xtcp tunnel's relay fallback: a second, stcp proxy of the same tunnel
 * and secret, which the visitor's xtcp visitor falls back to (`fallbackTo`) when hole punching
 * fails. frps sees it as "u_<uid>.t_<tun_id>_stcp" (docs/secret-tunnels.md).
 */
export const frpFallbackProxyLocalName = (tunId: number): string => `t_${tunId}_stcp`;

/**
 * Maps a server-side proxy name back to its owner and tunnel, or null for a foreign name. One
 * port's proxy of a port-range tunnel ("u_<uid>.t_<tun_id>_<port>", port-range.ts) also names
 * its port; the plugin checks that port against the tunnel. An xtcp tunnel's stcp fallback
 * ("u_<uid>.t_<tun_id>_stcp", frpFallbackProxyLocalName) says `fallback`.
 */
export function parseFrpProxyName(
  name: string | undefined,
): { uid: number; tun_id: number; port?: number; fallback?: true } | null {
  const m = name ? /^u_([1-9]\d{0,14})\.t_([1-9]\d{0,14})(?:_([1-9]\d{0,4})|_(stcp))?$/.exec(name) : null;
  if (!m) return null;
  if (m[3]) return { uid: Number(m[1]), tun_id: Number(m[2]), port: Number(m[3]) };
  if (m[4]) return { uid: Number(m[1]), tun_id: Number(m[2]), fallback: true };
  return { uid: Number(m[1]), tun_id: Number(m[2]) };
}
