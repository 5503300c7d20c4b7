import type { AddressInfo } from "node:net";
import type { AdminNodeDetail, NodeSetup, TunnelConfig } from "@burrow/contract";
import { FrpcClient, FrpsSim, type FrpsSimOptions, frpsOptionsFromToml, parseFrpcConfig } from "@burrow/frps-sim";
import { createTestNode } from "./frp-fixtures";
import type { TestApp } from "./harness";

/** Makes the app listen on an ephemeral loopback port (frps-sim calls the plugin over real HTTP). */
export async function listen(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

export interface SimNode {
  node: AdminNodeDetail;
  sim: FrpsSim;
  setup: NodeSetup;
}

/**
 * A node whose frps is the simulator, configured from the node's own generated frps.toml (plugin
 * URL, dashboard credentials, ports), its dashboard on an ephemeral port that the node's
 * api_addr is then pointed at.
 */
export async function startSimNode(
  t: TestApp,
  admin: string,
  opts: { node?: Record<string, unknown>; sim?: Partial<FrpsSimOptions> } = {},
): Promise<SimNode> {
  const origin = await listen(t);
  const node = await createTestNode(t, { host: "127.0.0.1", ...opts.node }, admin);
  const setup = (await t.api<NodeSetup>("GET", "/super/node/setup", { token: admin, query: { node_id: node.node_id } }))
    .body.data;
  const fromToml = frpsOptionsFromToml(setup.frps_toml);
  const sim = new FrpsSim({
    ...fromToml,
    // The generated file names the origin the admin used; the test server listens elsewhere.
    plugins: fromToml.plugins?.map((p) => ({ ...p, url: p.url.replace(/^https?:\/\/[^/]+/, origin) })),
    webServer: { ...fromToml.webServer, addr: "127.0.0.1", port: 0 },
    authFailDelayMs: 0,
    ...opts.sim,
  });
  await sim.start();
  const patched = await t.api<AdminNodeDetail>("PATCH", "/super/node", {
    token: admin,
    body: { node_id: node.node_id, api_addr: sim.dashboardUrl },
  });
  return { node: patched.body.data, sim, setup };
}

/** An frpc running the customer's generated config for every tunnel on the node. */
export async function frpcFor(t: TestApp, sim: FrpsSim, token: string, nodeId: number): Promise<FrpcClient> {
  const cfg = await t.api<TunnelConfig>("GET", "/user/tun/config", { token, query: { node_id: nodeId } });
  if (cfg.body.code !== "SUCCESS") throw new Error(`config failed: ${JSON.stringify(cfg.body)}`);
  return new FrpcClient(sim, parseFrpcConfig(cfg.body.data.toml));
}
