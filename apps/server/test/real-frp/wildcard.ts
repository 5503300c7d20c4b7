import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DomainVerifyResult, DomainView, TunnelConfig, TunnelView } from "@burrow/contract";
import { expect } from "vitest";
import type { TestDnsServer } from "../dns-server";
import { type FrpProcess, localServices, runFrp, verify, vhostGet, waitUntil } from "./frp-env";

/** What the wildcard case needs of the suite: the console's API, fresh customers, the node, the DNS server. */
export interface WildcardCaseEnv {
  frpc: string;
  dir: string;
  nodeId: number;
  /** frps's vhost http port */
  vhostPort: number;
  dns: TestDnsServer;
  api: <T>(method: string, p: string, o?: { token?: string; body?: unknown }) => Promise<T>;
  customer: () => Promise<{ uid: number; token: string }>;
}

/**
 * 通配符域名 through real frps: customer A verifies `*.<apex>` (the apex's TXT, the probe's CNAME)
 * and serves an http tunnel with customDomains ["*.<apex>"], which the console's plugin accepts
 * at NewProxy; any Host one or more labels under the apex reaches A's local service. Customer B
 * holds `b.<apex>` exactly, and frps's router (exact Host first, docs/domains.md) sends that name
 * to B's service, not to A's wildcard — while B's proxy is registered: with B offline the name
 * goes to A's wildcard again.
 */
export async function wildcardCase(env: WildcardCaseEnv): Promise<void> {
  const apex = `wild-${randomBytes(3).toString("hex")}.example.com`;
  const a = await env.customer();
  const b = await env.customer();
  const prove = async (c: { token: string }, domain: string) => {
    const d = await env.api<DomainView>("POST", "/user/domain", {
      token: c.token,
      body: { domain, node_id: env.nodeId },
    });
    for (const r of d.records)
      if (r.type === "TXT") await env.dns.setTxt(r.host, r.value);
      // a DNS wildcard answers the probe name like any other under it
      else await env.dns.setCname(r.host.replace(/^\*\./, "_burrow-probe."), r.value);
    const v = await env.api<DomainVerifyResult>("POST", "/user/domain/verify", { token: c.token, body: { id: d.id } });
    expect(v.domain.state, v.domain.problem ?? "").toBe("verified");
  };
  await prove(a, `*.${apex}`);
  await prove(b, `b.${apex}`);
  const localA = await localServices("wildcard-a");
  const localB = await localServices("exact-b");
  const procs: FrpProcess[] = [];
  try {
    for (const [c, domain, port] of [
      [a, `*.${apex}`, localA.httpPort],
      [b, `b.${apex}`, localB.httpPort],
    ] as const) {
      await env.api<TunnelView>("POST", "/user/tun", {
        token: c.token,
        body: { node_id: env.nodeId, tun_name: "site", protocol: "http", local_port: port, custom_domains: [domain] },
      });
      const cfg = await env.api<TunnelConfig>("GET", `/user/tun/config?node_id=${env.nodeId}`, { token: c.token });
      const file = path.join(env.dir, `frpc-wildcard-${c.uid}.toml`);
      fs.writeFileSync(file, cfg.toml);
      expect(cfg.toml).toContain(`"${domain}"`);
      expect(verify(env.frpc, file).status).toBe(0);
      procs.push(runFrp(env.frpc, file));
    }
    const got = await waitUntil(`a.${apex} served`, async () => {
      const r = await vhostGet(env.vhostPort, `a.${apex}`, "/w");
      return r.status === 200 ? r : null;
    });
    expect(got.body).toBe(`hello from wildcard-a a.${apex} /w`);
    expect((await vhostGet(env.vhostPort, `x.y.${apex}`, "/deep")).body).toBe(
      `hello from wildcard-a x.y.${apex} /deep`,
    );
    // Until B's proxy is up its name falls to A's wildcard; then the exact route wins.
    const exact = await waitUntil(`b.${apex} served by B`, async () => {
      const r = await vhostGet(env.vhostPort, `b.${apex}`, "/b");
      return r.body.startsWith("hello from exact-b") ? r : null;
    });
    expect(exact.body).toBe(`hello from exact-b b.${apex} /b`);
    expect((await vhostGet(env.vhostPort, `c.${apex}`, "/c")).body).toBe(`hello from wildcard-a c.${apex} /c`);
    // The apex itself is no name under the wildcard.
    expect((await vhostGet(env.vhostPort, apex)).status).toBe(404);
    // B offline: frps routes among registered proxies only, so b.<apex> (and deeper names) fall
    // to A's wildcard again (docs/domains.md 通配符域名, Holding).
    await procs[1].stop();
    const fallen = await waitUntil(`b.${apex} back to A's wildcard`, async () => {
      const r = await vhostGet(env.vhostPort, `b.${apex}`, "/off");
      return r.body.startsWith("hello from wildcard-a") ? r : null;
    });
    expect(fallen.body).toBe(`hello from wildcard-a b.${apex} /off`);
    expect((await vhostGet(env.vhostPort, `x.b.${apex}`, "/d")).body).toBe(`hello from wildcard-a x.b.${apex} /d`);
  } finally {
    for (const p of procs) await p.stop();
    localA.close();
    localB.close();
  }
}
