import { createHash } from "node:crypto";
import type { TunnelView } from "@burrow/contract";

/*
 * What frps posts to the plugin (frp-protocol.md §1), built for a customer of the console: the
 * Login, the user block of every later op and the NewProxy contents of its tcp and http tunnels.
 */

/** What the bodies need of a customer: frpc's user and token, and its two tunnels. */
export interface FrpsCustomer {
  uid: number;
  user: string;
  frpToken: string;
  tcp: Pick<TunnelView, "tun_id" | "remote_port">;
  http: Pick<TunnelView, "tun_id">;
}

export const RUN_ID = "8e2f0c4b9a1d7e35";
/** The plugin's answer that lets an operation pass unchanged. */
export const ALLOW = { reject: false, unchange: true };

export const userInfo = (c: FrpsCustomer, runId = RUN_ID, token = c.frpToken) => ({
  user: c.user,
  metas: { token },
  run_id: runId,
});
export const loginContent = (c: FrpsCustomer, token = c.frpToken) => {
  const timestamp = 1753279200;
  return {
    version: "0.70.1",
    hostname: "nas",
    os: "linux",
    arch: "amd64",
    user: c.user,
    privilege_key: createHash("md5").update(`${timestamp}`).digest("hex"),
    timestamp,
    metas: { token },
    client_spec: {},
    pool_count: 1,
    client_address: "203.0.113.7:51234",
  };
};
export const tcpProxy = (c: FrpsCustomer, extra: Record<string, unknown> = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
  proxy_type: "tcp",
  remote_port: c.tcp.remote_port,
  ...extra,
});
export const httpProxy = (c: FrpsCustomer, extra: Record<string, unknown> = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${c.http.tun_id}`,
  proxy_type: "http",
  use_compression: true,
  metas: { tunnel_id: String(c.http.tun_id) },
  custom_domains: [`www${c.uid}.example.com`],
  subdomain: `alice${c.uid}`,
  locations: ["/", "/api"],
  http_user: "u",
  http_pwd: "p",
  host_header_rewrite: "127.0.0.1",
  ...extra,
});
