import type { AdminNodeDetail, DomainVerifyResult, DomainView, Paged, TunnelView } from "@burrow/contract";
import { afterAll, beforeAll, expect } from "vitest";
import type { DomainGate, UsableDomain } from "../src/context";
import { domainNames } from "../src/modules/domains/domain-rules";
import { type AdminSuite, adminSuite } from "./admin-fixtures";
import { startDnsServer, type TestDnsServer } from "./dns-server";
import { createTestNode, setPlan } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";

/**
 * For suites about tunnel mechanics rather than domain ownership (ports, claims, plugin checks,
 * races): a gate that lets every customer use any custom domain on any node, as before domains
 * had to be verified. Ownership itself is tested in modules/domains against a real DNS server. The
 * provider's names and the homograph rules still hold (they are not about ownership).
 */
export function openDomainGate(publicUrl: string | undefined): DomainGate {
  return {
    assertUsable: async () => undefined,
    names: (db) => domainNames(db, publicUrl),
    async usable(db, uid) {
      const rows = await db
        .selectFrom("tunnels")
        .select(["node_id", "custom_domains"])
        .where("uid", "=", uid)
        .execute();
      const out = new Map<string, UsableDomain>();
      for (const r of rows)
        for (const d of JSON.parse(r.custom_domains) as string[])
          out.set(d, { node_id: r.node_id, untilMs: Number.POSITIVE_INFINITY });
      return out;
    },
  };
}

/** Replaces the app's domain gate with openDomainGate (the frp plugin reads ctx.domains per load). */
export function openDomains(t: TestApp): void {
  t.ctx.domains = openDomainGate(t.ctx.config.PUBLIC_URL);
}

export interface TunnelSuite extends AdminSuite {
  node: AdminNodeDetail;
}

/**
 * The set-up of the tunnel suites: adminSuite with open domains (tunnel mechanics, not domain
 * ownership: modules/domains tests that) and one node made with `nodeFields`.
 */
export function tunnelSuite(bind: (s: TunnelSuite) => void, nodeFields: Record<string, unknown> = {}): void {
  adminSuite(async (s) => {
    openDomains(s.t);
    bind({ ...s, node: await createTestNode(s.t, nodeFields, s.admin) });
  });
}

/** Marks `domain` verified for `uid` on `nodeId` directly (a suite that needs a held domain, not the DNS flow). */
export async function holdDomain(t: TestApp, uid: number, nodeId: number, domain: string): Promise<void> {
  const now = new Date().toISOString();
  await t.db
    .insertInto("domains")
    .values({
      uid,
      domain,
      node_id: nodeId,
      token: `test-${uid}-${domain}`,
      status: "verified",
      verified_domain: domain,
      icp_no: null,
      problem: null,
      verified_at: now,
      checked_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export const GRACE_HOURS = 72;
export type DomainCustomer = Awaited<ReturnType<TestApp["register"]>> & { frpToken: string };
type Customer = DomainCustomer;

/**
 * The set-up of the domains module's suites: a real DNS server on loopback (DNS_SERVERS), the app
 * with a grace period of GRACE_HOURS, two nodes, and customers who add, publish and verify domains
 * and start http tunnels on them. `get()` gives the app once the file's beforeAll ran. `env`: more
 * settings of the app, read when it is built (after the file's earlier beforeAll hooks).
 */
export function domainSuite(env: () => Record<string, string> = () => ({})) {
  let t: TestApp;
  let dns: TestDnsServer;
  let admin: string;
  let node: AdminNodeDetail;
  let other: AdminNodeDetail;
  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ ...env(), DNS_SERVERS: dns.dnsServer, DOMAIN_GRACE_HOURS: String(GRACE_HOURS) });
    admin = await t.adminToken();
    node = await createTestNode(t, { subdomain_host: "frp.example.net" }, admin);
    other = await createTestNode(t, { subdomain_host: "edge.example.net", host: "edge-node.example.net" }, admin);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.stop();
  });

  let seq = 0;
  const name = () => `shop${++seq}-${process.pid}.example.com`;

  async function customer(): Promise<Customer> {
    const u = await t.register();
    await setPlan(t, u.uid, { tunnel_limit: 10, tunnel_peer_port_limit: 5 });
    const info = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
    return { ...u, frpToken: info.body.data.frp_token };
  }

  const add = (c: { token: string }, domain: string, nodeId = node.node_id, extra: Record<string, unknown> = {}) =>
    t.api<DomainView>("POST", "/user/domain", { token: c.token, body: { domain, node_id: nodeId, ...extra } });
  const verify = (c: { token: string }, id: number) =>
    t.api<DomainVerifyResult>("POST", "/user/domain/verify", { token: c.token, body: { id } });
  const list = (c: { token: string }) => t.api<Paged<DomainView>>("GET", "/user/domain", { token: c.token });

  /** Publishes the records Burrow asked for on the test DNS server. */
  async function publish(d: DomainView) {
    const txt = d.records.find((r) => r.type === "TXT");
    const cname = d.records.find((r) => r.type === "CNAME");
    if (!txt || !cname) throw new Error(`records missing: ${JSON.stringify(d.records)}`);
    await dns.setTxt(txt.host, txt.value);
    await dns.setCname(cname.host, cname.value);
  }

  /** Adds, publishes and verifies a domain; returns its view. */
  async function owned(c: Customer, domain = name(), nodeId = node.node_id): Promise<DomainView> {
    const a = await add(c, domain, nodeId);
    expect(a.body.code).toBe("SUCCESS");
    await publish(a.body.data);
    const v = await verify(c, a.body.data.id);
    expect(v.body.data.ok).toBe(true);
    return v.body.data.domain;
  }

  const web = (c: { token: string }, domains: string[], nodeId = node.node_id) =>
    t.api<TunnelView>("POST", "/user/tun", {
      token: c.token,
      body: { tun_name: `web${++seq}`, protocol: "http", local_port: 80, node_id: nodeId, custom_domains: domains },
    });

  /** frps's NewProxy for a customer's http tunnel, as frps posts it. */
  /** One frps plugin call for this tunnel's frpc session (the same run id every time). */
  async function pluginCall(op: "NewProxy" | "Ping", c: Customer, tun: TunnelView, n: AdminNodeDetail = node) {
    const user = { user: `u_${c.uid}`, metas: { token: c.frpToken }, run_id: `run${c.uid}${tun.tun_id}` };
    const content =
      op === "NewProxy"
        ? { user, proxy_name: `u_${c.uid}.t_${tun.tun_id}`, proxy_type: "http", custom_domains: tun.custom_domains }
        : { user, timestamp: Math.floor(Date.now() / 1000) };
    const res = await t.app.inject({
      method: "POST",
      url: `/api/frp/plugin/${n.node_id}/${n.plugin_secret}?op=${op}&version=0.1.0`,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ version: "0.1.0", op, content }),
    });
    return res.json() as { reject: boolean; reject_reason?: string };
  }

  const newProxy = (c: Customer, tun: TunnelView, n: AdminNodeDetail = node) => pluginCall("NewProxy", c, tun, n);

  return {
    get: () => ({ t, dns, admin, node, other }),
    name,
    customer,
    add,
    verify,
    list,
    publish,
    owned,
    web,
    pluginCall,
    newProxy,
  };
}
