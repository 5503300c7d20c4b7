import { coveringWildcard, domainApex, isWildcard } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { Config } from "../../config";
import type { DomainGate, UsableDomain } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, remoteDuplicated } from "../../shared/errors";
import { domainNames } from "./domain-rules";

/**
 * The domain rules tunnels and the frp plugin follow: a custom domain serves a customer's tunnel
 * when the customer holds it (verified, or flagged and still within DOMAIN_GRACE_HOURS) and the
 * tunnel runs on the node its CNAME points at.
 */
export function domainGate(config: Pick<Config, "DOMAIN_GRACE_HOURS" | "PUBLIC_URL">): DomainGate {
  const graceMs = config.DOMAIN_GRACE_HOURS * 3_600_000;
  const untilOf = (r: { status: string; flagged_at: string | null }): number =>
    r.status === "flagged" && r.flagged_at ? Date.parse(r.flagged_at) + graceMs : Number.POSITIVE_INFINITY;

  return {
    names: (db) => domainNames(db, config.PUBLIC_URL),

    async usable(db, uid) {
      const rows = await db
        .selectFrom("domains")
        .select(["verified_domain", "node_id", "status", "flagged_at"])
        .where("uid", "=", uid)
        .where("verified_domain", "is not", null)
        .execute();
      const out = new Map<string, UsableDomain>();
      for (const r of rows) out.set(r.verified_domain as string, { node_id: r.node_id, untilMs: untilOf(r) });
      // Names other customers hold exactly, one label under this customer's wildcards: not covered.
      for (const name of await takenUnderWildcards(db, uid, [...out.keys()].filter(isWildcard))) {
        const w = out.get(coveringWildcard(name) as string) as UsableDomain;
        out.set(name, { ...w, taken: true });
      }
      return out;
    },

    async assertUsable(db: Kysely<DB>, uid: number, nodeId: number, domains: readonly string[]) {
      if (!domains.length) return;
      const wildcards = domains.map(coveringWildcard).filter((w): w is string => w !== null);
      const rows = await db
        .selectFrom("domains")
        .select(["uid", "domain", "node_id", "status", "flagged_at", "verified_domain"])
        .where("domain", "in", [...domains, ...wildcards])
        .execute();
      const now = Date.now();
      for (const d of domains) {
        const exact = rows.find((r) => r.verified_domain === d);
        if (exact && exact.uid !== uid) throw remoteDuplicated(`域名 ${d} 已被其他用户验证`, "custom_domains");
        // A plain name one label under a wildcard the customer holds is covered by it (docs/domains.md).
        const wildcard = coveringWildcard(d);
        const held =
          exact ?? (wildcard ? rows.find((r) => r.uid === uid && r.verified_domain === wildcard) : undefined);
        if (!held) {
          const mine = rows.find((r) => r.uid === uid && r.domain === d);
          const why = mine?.status === "unbound" ? "已被管理员解绑" : "尚未验证，请先在「我的域名」中添加并验证";
          throw invalid("custom_domains", `域名 ${d} ${why}`);
        }
        const name = held.verified_domain === d ? d : `${d}（泛域名 ${held.verified_domain}）`;
        if (untilOf(held) <= now)
          throw invalid("custom_domains", `域名 ${name} 的 TXT 验证记录已缺失超过宽限期，请恢复记录后重新验证`);
        if (held.node_id !== nodeId)
          throw invalid(
            "custom_domains",
            `域名 ${name} 解析到另一个节点，只能用于该节点上的隧道（可删除后按新节点重新添加）`,
          );
      }
    },
  };
}

/**
 * The plain names other customers hold one label under the given wildcards of `uid` (each proved
 * its own TXT record; frps routes an exact name before any wildcard, so they stay theirs).
 */
async function takenUnderWildcards(db: Kysely<DB>, uid: number, wildcards: string[]): Promise<string[]> {
  if (!wildcards.length) return [];
  const rows = await db
    .selectFrom("domains")
    .select("verified_domain")
    .where("uid", "<>", uid)
    .where((eb) => eb.or(wildcards.map((w) => eb("verified_domain", "like", `%.${domainApex(w)}`))))
    .execute();
  const set = new Set(wildcards);
  return rows
    .map((r) => r.verified_domain as string)
    .filter((n) => !isWildcard(n) && set.has(coveringWildcard(n) ?? ""));
}
