import type { AdminNodeDetail, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll } from "vitest";
import { frpRuntime } from "../src/modules/frp/frp.routes";
import { openDomains } from "./domain-fixtures";
import { createTestNode, createTestTunnel, type PlanOverrides, setPlan } from "./frp-fixtures";
import type { FrpsCustomer } from "./frps-bodies";
import { createTestApp, type TestApp } from "./harness";

/** A customer of the plugin suites: what frps-bodies.ts needs, and the tunnels as the console answered. */
export interface PluginCustomer extends FrpsCustomer {
  token: string;
  tcp: TunnelView;
  http: TunnelView;
}

type Customer = PluginCustomer;

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
