import { domainToUnicode } from "node:url";
import { IllegalStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import { nowIso } from "../../shared/time";

/** An operator rule, compiled for matching. */
export interface CompiledRule {
  id: number;
  kind: "keyword" | "port";
  value: string;
  /** keyword, lower-cased */
  keyword?: string;
  lo?: number;
  hi?: number;
}

/** What rules look at in a tunnel. */
export interface RuleSubject {
  tun_id: number;
  uid: number;
  node_id: number;
  tun_name: string;
  /** full domain names */
  domains: string[];
  remote_port: number | null;
  /** a port range's last port (port-range.ts); absent or null: one port */
  remote_port_end?: number | null;
}

/** Loads every rule, ready for matching. */
export async function loadRules(db: Kysely<DB>): Promise<CompiledRule[]> {
  const rows = await db.selectFrom("illegal_rules").selectAll().orderBy("id").execute();
  return rows.map((r) => {
    if (r.kind === "port") {
      const [lo, hi] = r.value.split("-").map(Number);
      return { id: r.id, kind: "port", value: r.value, lo, hi: hi ?? lo };
    }
    return { id: r.id, kind: "keyword", value: r.value, keyword: r.value.toLowerCase() };
  });
}

/** The rules a tunnel breaks, each with a reason an operator can read. */
export function matchRules(rules: CompiledRule[], t: RuleSubject): { rule: CompiledRule; reason: string }[] {
  const hits: { rule: CompiledRule; reason: string }[] = [];
  for (const rule of rules) {
    if (rule.kind === "port") {
      // Any port of a range in the rule's ports: the first such port is named.
      const last = t.remote_port_end ?? t.remote_port;
      if (
        t.remote_port &&
        last &&
        rule.lo !== undefined &&
        rule.hi !== undefined &&
        last >= rule.lo &&
        t.remote_port <= rule.hi
      )
        hits.push({ rule, reason: `使用了禁止的端口 ${Math.max(t.remote_port, rule.lo)}（规则 ${rule.value}）` });
      continue;
    }
    const kw = rule.keyword ?? "";
    if (!kw) continue;
    if (t.tun_name.toLowerCase().includes(kw)) hits.push({ rule, reason: `隧道名称含有违禁词「${rule.value}」` });
    else {
      // Domains are stored in punycode: a keyword in any script is looked for in the Unicode form too.
      const d = t.domains.map((x) => domainToUnicode(x) || x).find((x) => x.toLowerCase().includes(kw));
      const ascii = t.domains.find((x) => x.toLowerCase().includes(kw));
      if (d || ascii) hits.push({ rule, reason: `域名 ${d ?? ascii} 含有违禁词「${rule.value}」` });
    }
  }
  return hits;
}

/**
 * Flags a tunnel for each rule it breaks, once per rule: an existing flag (pending, banned or
 * cleared) for the same rule is kept as it is. Returns how many new flags were raised.
 */
export async function flagByRules(db: Kysely<DB>, rules: CompiledRule[], t: RuleSubject): Promise<number> {
  const hits = matchRules(rules, t);
  if (!hits.length) return 0;
  const existing = new Set(
    (
      await db
        .selectFrom("tunnel_flags")
        .select("rule_id")
        .where("tun_id", "=", t.tun_id)
        .where(
          "rule_id",
          "in",
          hits.map((h) => h.rule.id),
        )
        .execute()
    ).map((r) => r.rule_id),
  );
  let raised = 0;
  for (const h of hits) {
    if (existing.has(h.rule.id)) continue;
    try {
      await db
        .insertInto("tunnel_flags")
        .values({
          tun_id: t.tun_id,
          uid: t.uid,
          node_id: t.node_id,
          source: "rule",
          rule_id: h.rule.id,
          reason: h.reason,
          reporter: "",
          status: IllegalStatus.Pending,
          created_at: nowIso(),
          handled_at: null,
          handled_by: null,
        })
        .execute();
      raised++;
    } catch (err) {
      // Another process flagged it at the same moment: one flag is what we want.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return raised;
}
