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

/** Points frpc's STUN server (a top-level key) at a closed loopback port: hole punching fails fast. */
const noStun = (toml: string, port: number) =>
  toml.replace(/^(serverPort = \d+)$/m, `$1\nnatHoleStunServer = "127.0.0.1:${port}"`);

/**
 * xtcp with its stcp fallback (docs/secret-tunnels.md): the serving frpc registers the xtcp proxy
 * and "t_<id>_stcp"; the visitor frpc's xtcp visitor cannot punch a hole here (loopback only, its
 * STUN server a closed port), so after fallbackTimeoutMs it hands each connection to its stcp
 * visitor, through frps. A 64 KB echo goes through, and the tunnel is billed for it once (the
 * relayed bytes; a punched connection's never pass frps).
 */
export async function xtcpFallbackCase(env: SecretCaseEnv): Promise<void> {
  const c = await env.customer();
  const local = await localServices("xtcp");
  const procs: FrpProcess[] = [];
  try {
    const x = await env.api<TunnelView>("POST", "/user/tun", {
      token: c.token,
      body: { node_id: env.nodeId, tun_name: "secret-p2p", protocol: "xtcp", local_port: local.tcpPort },
    });
    const stun = await freePort();
    const write = (name: string, toml: string) => {
      const file = path.join(env.dir, name);
      fs.writeFileSync(file, noStun(toml, stun));
      const v = verify(env.frpc, file);
      expect(v.status, v.output).toBe(0);
      return file;
    };
    const serving = await env.api<TunnelConfig>("GET", `/user/tun/config?tun_id=${x.tun_id}`, { token: c.token });
    const server = runFrp(env.frpc, write(`frpc-xtcp-${c.uid}.toml`, serving.toml));
    procs.push(server);
    await server.waitForLog(new RegExp(`t_${x.tun_id}\\] start proxy success`));
    await server.waitForLog(new RegExp(`t_${x.tun_id}_stcp\\] start proxy success`));

    const v = await env.api<TunnelConfig>("GET", `/user/tun/${x.tun_id}/visitor`, { token: c.token });
    expect(v.toml).toContain(`fallbackTo = "v_${x.tun_id}_stcp"`);
    const port = await freePort();
    const visitor = runFrp(env.frpc, write(v.filename, v.toml.replace(/^bindPort = \d+$/m, `bindPort = ${port}`)));
    procs.push(visitor);

    const data = randomBytes(64 * 1024);
    const echoed = await waitUntil(
      "the xtcp visitor's echo",
      () => tcpEcho(port, data, 10_000).catch(() => null),
      30_000,
    );
    expect(echoed.back.equals(data)).toBe(true);
    // The xtcp path failed and the connection was relayed (frpc logs the failed tunnel at error level).
    expect(visitor.log()).toMatch(/open tunnel error/);

    const billed = await waitUntil("the xtcp tunnel's relayed bytes billed", async () => {
      await env.poll();
      const list = await env.api<Paged<TunnelView>>("GET", "/user/tun?page=1&page_size=10", { token: c.token });
      const row = list.list.find((t) => t.tun_id === x.tun_id);
      return row && row.traffic_in >= data.length && row.traffic_out >= data.length ? row : null;
    });
    expect(billed.status).toBe(1);
    // Once: each way the echo's bytes and a little framing, not twice over.
    expect(billed.traffic_in).toBeLessThan(data.length * 1.5);
    expect(billed.traffic_out).toBeLessThan(data.length * 1.5);
  } finally {
    for (const p of procs) await p.stop();
    local.close();
  }
}
