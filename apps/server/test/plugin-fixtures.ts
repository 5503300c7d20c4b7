import { createHash } from "node:crypto";
import type { AdminNodeDetail, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll } from "vitest";
import { frpRuntime } from "../src/modules/frp/frp.routes";
import { openDomains } from "./domain-fixtures";
import { createTestNode, createTestTunnel, type PlanOverrides, setPlan } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";

export interface PluginCustomer {
  uid: number;
  token: string;
  user: string;
  frpToken: string;
  tcp: TunnelView;
  http: TunnelView;
}

export const RUN_ID = "8e2f0c4b9a1d7e35";
/** The plugin's answer that lets an operation pass unchanged. */
export const ALLOW = { reject: false, unchange: true };

type Customer = PluginCustomer;
export const userInfo = (c: Customer, runId = RUN_ID, token = c.frpToken) => ({
  user: c.user,
  metas: { token },
  run_id: runId,
});
export const loginContent = (c: Customer, token = c.frpToken) => {
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
export const tcpProxy = (c: Customer, extra: Record<string, unknown> = {}) => ({
  user: userInfo(c),
  proxy_name: `${c.user}.t_${c.tcp.tun_id}`,
  proxy_type: "tcp",
  remote_port: c.tcp.remote_port,
  ...extra,
});
export const httpProxy = (c: Customer, extra: Record<string, unknown> = {}) => ({
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

/**
 * The set-up of the frps plugin's suites: one app listening on a socket (as frps calls it, so the
 * fast path in plugin-http.ts answers, not Fastify's route), an admin token, a node with no
 * bandwidth limit and another node; customers with a tcp and an http tunnel on the first node,
 * and a poster of plugin calls. `get()` gives the app and nodes once the file's beforeAll ran.
 */
export function pluginSuite() {
  const s = {
    t: undefined as unknown as TestApp,
    admin: "",
    node: undefined as unknown as AdminNodeDetail,
    other: undefined as unknown as AdminNodeDetail,
    base: "",
  };
  beforeAll(async () => {
    s.t = await createTestApp();
    // Tunnel mechanics, not domain ownership (modules/domains tests that).
    openDomains(s.t);
    s.admin = await s.t.adminToken();
    s.node = await createTestNode(s.t, { bandwidth: 0 }, s.admin);
    s.other = await createTestNode(s.t, {}, s.admin);
    await s.t.app.listen({ host: "127.0.0.1", port: 0 });
    s.base = `http://127.0.0.1:${(s.t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => s.t.close());

  return {
    get: () => s,
    async customer(plan: PlanOverrides = {}): Promise<Customer> {
      const { t, node } = s;
      const u = await t.register();
      await setPlan(t, u.uid, { bandwidth: 10, ...plan });
      const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
      const tcp = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "tcp", local_port: 22 });
      const http = await createTestTunnel(t, u.token, {
        node_id: node.node_id,
        protocol: "http",
        local_port: 8080,
        custom_domains: [`www${u.uid}.example.com`],
        subdomain: `alice${u.uid}`,
        addon: { locations: ["/", "/api"], http_user: "u", http_password: "p", host_header_rewrite: "127.0.0.1" },
      });
      return { uid: u.uid, token: u.token, user: `u_${u.uid}`, frpToken: info.body.data.frp_token, tcp, http };
    },
    /** Posts exactly what frps posts: ?op=…&version=0.1.0, Go's headers, the plugin envelope. */
    async plugin(op: string, content: unknown, n: { node_id: number; plugin_secret: string } = s.node) {
      const res = await fetch(`${s.base}/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-frp-reqid": "0123456789abcdef",
          "user-agent": "Go-http-client/1.1",
        },
        body: JSON.stringify({ version: "0.1.0", op, content }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    flush: () => frpRuntime(s.t.ctx).writer.flush(),
  };
}
