import { coveringWildcard } from "@burrow/contract";
import { isPostgres } from "../../db/dialect";
import type { Tx } from "../../shared/tx";
import { recordTunnelEvents } from "./tunnel-events";
import { tunnelCustomDomains } from "./tunnels.presenter";

/*
 * The exact owner of a name wins over a wildcard (docs/domains.md 通配符域名): a customer who
 * verified `x.a.com` with its own TXT record binds it on a node where another customer's tunnel
 * holds it only through `*.a.com` (whose NewProxy is refused for it anyway). Done at the bind, in
 * the binding write's transaction, rather than when the name is verified: a tunnel written in the
 * moment between the verification and the bind is then covered too.
 */

/** What the losing tunnel's 连接诊断 says (the fix offered: download the config again). */
export const takenOverReason = (domain: string): string =>
  `域名 ${domain} 已由其他用户单独验证并绑定到隧道，已从本隧道移除（泛域名 ${coveringWildcard(domain) ?? ""} 不再覆盖它），请重新下载配置`;

/**
 * Frees, for `uid`'s write on `nodeId`, the names in `exact` (names `uid` holds exactly, as the
 * domains module answers: the caller asks it) that other customers' tunnels on the node hold: each
 * such tunnel loses them from its custom_domains and tunnel_domains, gets a `domain_removed` event,
 * and tunnel.changed drops its owner's decision entry. The losing tunnel's row is taken for update
 * first (PostgreSQL; SQLite runs one write at a time), so an edit of it running meanwhile is not
 * overwritten with what was read before it.
 */
export async function takeOverExactNames(trx: Tx, uid: number, nodeId: number, exact: readonly string[]) {
  if (!exact.length) return;
  const held = await trx
    .selectFrom("tunnel_domains")
    .innerJoin("tunnels", "tunnels.tun_id", "tunnel_domains.tun_id")
    .select(["tunnels.tun_id", "tunnels.uid", "tunnel_domains.domain"])
    .where("tunnel_domains.node_id", "=", nodeId)
    .where("tunnel_domains.domain", "in", exact)
    .where("tunnels.uid", "<>", uid)
    .orderBy("tunnels.tun_id")
    .execute();
  const at = new Date().toISOString();
  for (const tunId of new Set(held.map((h) => h.tun_id))) {
    const names = held.filter((h) => h.tun_id === tunId).map((h) => h.domain);
    const sel = trx
      .selectFrom("tunnels")
      .select(["tun_id", "uid", "node_id", "custom_domains"])
      .where("tun_id", "=", tunId);
    const t = await (isPostgres(trx) ? sel.forUpdate() : sel).executeTakeFirstOrThrow();
    const kept = tunnelCustomDomains(t).filter((d) => !names.includes(d));
    await trx
      .updateTable("tunnels")
      .set({ custom_domains: JSON.stringify(kept), updated_at: at })
      .where("tun_id", "=", tunId)
      .execute();
    await trx
      .deleteFrom("tunnel_domains")
      .where("tun_id", "=", tunId)
      .where("node_id", "=", nodeId)
      .where("domain", "in", names)
      .execute();
    await recordTunnelEvents(
      trx,
      names.map((d) => ({
        tun_id: tunId,
        uid: t.uid,
        node_id: t.node_id,
        kind: "domain_removed" as const,
        reason: takenOverReason(d),
        count: 1,
        first_at: at,
        last_at: at,
      })),
    );
    trx.changes.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
  }
}
