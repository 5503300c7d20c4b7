import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Paged, TunnelConfig, TunnelView } from "@burrow/contract";
import { expect } from "vitest";
import { freePort } from "../child-server";
import { type FrpProcess, localServices, runFrp, tcpEcho, udpEcho, verify, waitUntil } from "./frp-env";

/** What the secret-tunnel case needs of the suite: the console's API, a fresh customer, the node. */
export interface SecretCaseEnv {
  frpc: string;
  dir: string;
  nodeId: number;
  api: <T>(method: string, p: string, o?: { token?: string; body?: unknown }) => Promise<T>;
  customer: () => Promise<{ uid: number; token: string }>;
  poll: () => Promise<unknown>;
}

/**
 * 私密隧道 with two real frpc: the serving one from the console's frpc.toml, and one visitor frpc
 * per tunnel from its visitor-side file (both log in as the customer). Bytes go visitor → frps →
 * serving frpc → local service and back through stcp and sudp, and the poller bills the stcp
 * proxy from /api/proxy/stcp. The two "machines" share the loopback here, so the visitor's local
 * port (the service's own port, as the file suggests) moves to a free one; nothing else changes.
 */
export async function secretTunnelsCase(env: SecretCaseEnv): Promise<void> {
  const c = await env.customer();
  const local = await localServices("secret");
  const procs: FrpProcess[] = [];
  try {
    const create = (body: Record<string, unknown>) =>
      env.api<TunnelView>("POST", "/user/tun", { token: c.token, body: { node_id: env.nodeId, ...body } });
    const stcp = await create({ tun_name: "secret-tcp", protocol: "stcp", local_port: local.tcpPort });
    const sudp = await create({ tun_name: "secret-udp", protocol: "sudp", local_port: local.udpPort });
    const serving = await env.api<TunnelConfig>("GET", `/user/tun/config?node_id=${env.nodeId}`, { token: c.token });
    const servingFile = path.join(env.dir, `frpc-secret-${c.uid}.toml`);
    fs.writeFileSync(servingFile, serving.toml);
    expect(verify(env.frpc, servingFile).status).toBe(0);
    procs.push(runFrp(env.frpc, servingFile));

    const visitorPort = async (t: TunnelView) => {
      const v = await env.api<TunnelConfig>("GET", `/user/tun/${t.tun_id}/visitor`, { token: c.token });
      const port = await freePort();
      const file = path.join(env.dir, v.filename);
      fs.writeFileSync(file, v.toml.replace(/^bindPort = \d+$/m, `bindPort = ${port}`));
      expect(verify(env.frpc, file).status).toBe(0);
      procs.push(runFrp(env.frpc, file));
      return port;
    };
    const [tcpPort, udpPort] = [await visitorPort(stcp), await visitorPort(sudp)];

    const data = randomBytes(64 * 1024);
    const echoed = await waitUntil("the stcp visitor's echo", () => tcpEcho(tcpPort, data, 5_000).catch(() => null));
    expect(echoed.back.equals(data)).toBe(true);
    const dgram = randomBytes(256);
    const back = await waitUntil("the sudp visitor's echo", () => udpEcho(udpPort, dgram, 1_000).catch(() => null));
    expect(back.equals(dgram)).toBe(true);

    // Billed like any tunnel: the poller reads /api/proxy/stcp.
    const billed = await waitUntil("the stcp tunnel's bytes billed", async () => {
      await env.poll();
      const list = await env.api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=10", { token: c.token });
      const row = list.list.find((t) => t.tun_id === stcp.tun_id);
      return row && row.traffic_in + row.traffic_out >= data.length ? row : null;
    });
    expect(billed.status).toBe(1);
  } finally {
    for (const p of procs) await p.stop();
    local.close();
  }
}
