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
      return out;
    },

    async assertUsable(db: Kysely<DB>, uid: number, nodeId: number, domains: readonly string[]) {
      if (!domains.length) return;
      const rows = await db
        .selectFrom("domains")
        .select(["uid", "domain", "node_id", "status", "flagged_at", "verified_domain"])
        .where("domain", "in", [...domains])
        .execute();
      const now = Date.now();
      for (const d of domains) {
        const held = rows.find((r) => r.verified_domain === d);
        if (held && held.uid !== uid) throw remoteDuplicated(`域名 ${d} 已被其他用户验证`, "custom_domains");
        if (!held) {
          const mine = rows.find((r) => r.uid === uid && r.domain === d);
          const why = mine?.status === "unbound" ? "已被管理员解绑" : "尚未验证，请先在「我的域名」中添加并验证";
          throw invalid("custom_domains", `域名 ${d} ${why}`);
        }
        if (untilOf(held) <= now)
          throw invalid("custom_domains", `域名 ${d} 的 TXT 验证记录已缺失超过宽限期，请恢复记录后重新验证`);
        if (held.node_id !== nodeId)
          throw invalid(
            "custom_domains",
            `域名 ${d} 解析到另一个节点，只能用于该节点上的隧道（可删除后按新节点重新添加）`,
          );
      }
    },
  };
}
