import type { DomainGate, UsableDomain } from "../src/context";
import { domainNames } from "../src/modules/domains/domain-rules";
import type { TestApp } from "./harness";

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
