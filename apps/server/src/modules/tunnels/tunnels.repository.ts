import { NodeStatus, TunnelStatus } from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema";
import { shanghaiDate } from "../../shared/time";

/**
 * Tunnels with what every view of them needs: node address and ports, today's traffic row,
 * the owner's phone, and the connection count the poller last saw. Every tunnel has its row,
 * that of a deleted node too (a deleted tunnel: "", 0 and off the shelf for the node's fields): a
 * list's count reads tunnels alone (filteredTunnels), so a join that dropped rows would make a
 * short page of a long list, whose total pageOf takes from the page.
 */
export function selectTunnels(db: Kysely<DB>, today = shanghaiDate()) {
  return db
    .selectFrom("tunnels")
    .leftJoin("nodes", "nodes.node_id", "tunnels.node_id")
    .leftJoin("users", "users.uid", "tunnels.uid")
    .leftJoin("tunnel_traffic as tt", (join) => join.onRef("tt.tun_id", "=", "tunnels.tun_id").on("tt.day", "=", today))
    .leftJoin("proxy_counters as pc", (join) =>
      join.onRef("pc.tun_id", "=", "tunnels.tun_id").onRef("pc.node_id", "=", "tunnels.node_id"),
    )
    .selectAll("tunnels")
    .select([
      sql<string>`coalesce(${sql.ref("nodes.name")}, '')`.as("node_name"),
      sql<string>`coalesce(${sql.ref("nodes.host")}, '')`.as("node_host"),
      sql<number>`coalesce(${sql.ref("nodes.bind_port")}, 0)`.as("node_bind_port"),
      sql<number>`coalesce(${sql.ref("nodes.status")}, ${NodeStatus.OffShelf})`.as("node_status"),
      "nodes.vhost_http_port as node_http_port",
      "nodes.vhost_https_port as node_https_port",
      "nodes.subdomain_host as node_subdomain_host",
      "users.phone as owner_phone",
      "users.nickname as owner_nickname",
      "tt.traffic_in as today_in",
      "tt.traffic_out as today_out",
      "pc.cur_conns as cur_conns",
    ]);
}

export type TunnelJoinedRow = Awaited<ReturnType<ReturnType<typeof selectTunnels>["executeTakeFirstOrThrow"]>>;

/** A live (not deleted) tunnel of one customer, or undefined: other customers' tunnels do not exist for them. */
export const findOwnTunnel = (db: Kysely<DB>, uid: number, tunId: number): Promise<TunnelJoinedRow | undefined> =>
  selectTunnels(db)
    .where("tunnels.tun_id", "=", tunId)
    .where("tunnels.uid", "=", uid)
    .where("tunnels.status", "<>", TunnelStatus.Deleted)
    .executeTakeFirst();

/** Any tunnel by id (operators). */
export const findTunnel = (db: Kysely<DB>, tunId: number): Promise<TunnelJoinedRow | undefined> =>
  selectTunnels(db).where("tunnels.tun_id", "=", tunId).executeTakeFirst();

/** Full domain names (custom domains and subdomain.subDomainHost) a tunnel holds on its node. */
export function tunnelDomains(t: { custom_domains: string[]; subdomain: string | null }, subdomainHost: string | null) {
  const out = [...t.custom_domains];
  if (t.subdomain && subdomainHost) out.push(`${t.subdomain}.${subdomainHost}`);
  return out;
}

/** Replaces the domain rows of a tunnel (none for deleted tunnels). */
export async function writeTunnelDomains(
  trx: Kysely<DB>,
  tunId: number,
  nodeId: number,
  domains: string[],
): Promise<void> {
  await trx.deleteFrom("tunnel_domains").where("tun_id", "=", tunId).execute();
  if (domains.length)
    await trx
      .insertInto("tunnel_domains")
      .values(domains.map((domain) => ({ node_id: nodeId, domain, tun_id: tunId })))
      .execute();
}

/**
 * Frees the domains of deleted tunnels that frps no longer holds (they stay reserved while a
 * session still serves them); the frp module calls it when a hold ends.
 */
export async function releaseDeletedDomains(trx: Kysely<DB>, tunIds: number[]): Promise<void> {
  if (tunIds.length === 0) return;
  await trx
    .deleteFrom("tunnel_domains")
    .where("tun_id", "in", (eb) =>
      eb
        .selectFrom("tunnels")
        .select("tun_id")
        .where("tun_id", "in", tunIds)
        .where("status", "=", TunnelStatus.Deleted)
        .where("run_id", "is", null),
    )
    .execute();
}

/** Live tunnels (not deleted) that use any of these custom domains, with their owner and node. */
export async function tunnelsUsingDomains(
  db: Kysely<DB>,
  domains: string[],
): Promise<{ tun_id: number; uid: number; node_id: number; tun_name: string; domain: string }[]> {
  if (!domains.length) return [];
  return db
    .selectFrom("tunnel_domains")
    .innerJoin("tunnels", "tunnels.tun_id", "tunnel_domains.tun_id")
    .select(["tunnels.tun_id", "tunnels.uid", "tunnels.node_id", "tunnels.tun_name", "tunnel_domains.domain"])
    .where("tunnel_domains.domain", "in", [...new Set(domains)])
    .where("tunnels.status", "<>", TunnelStatus.Deleted)
    .orderBy("tunnels.tun_id")
    .execute();
}
