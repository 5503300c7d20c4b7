import { NodeStatus, type Paged, type TunnelListQuery, TunnelStatus } from "@burrow/contract";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { containsText, trigramContains } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { countRows, pageIds, pageOf } from "../../shared/paging";
import { nowIso, shanghaiDate } from "../../shared/time";
import type { Tx } from "../../shared/tx";
import type { NodeRow } from "../nodes/nodes.table";
import { uidsWithPhoneContaining } from "../users/users.repository";
import type { TunnelRow } from "./tunnels.table";

/**
 * Tunnels with what every view of them needs: node address and ports, today's traffic row,
 * the owner's phone, and the connection count the poller last saw. Every tunnel has its row,
 * that of a deleted node too (a deleted tunnel: "", 0 and off the shelf for the node's fields): a
 * list's count reads tunnels alone (filteredTunnels), so a join that dropped rows would make a
 * short page of a long list, whose total pageOf takes from the page.
 */
export function selectTunnels(db: Kysely<DB>, today = shanghaiDate()) {
  // cur_conns summed, not joined: a port-range tunnel has one counter row per port's proxy.
  return db
    .selectFrom("tunnels")
    .leftJoin("nodes", "nodes.node_id", "tunnels.node_id")
    .leftJoin("users", "users.uid", "tunnels.uid")
    .leftJoin("tunnel_traffic as tt", (join) => join.onRef("tt.tun_id", "=", "tunnels.tun_id").on("tt.day", "=", today))
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
    ])
    .select((eb) =>
      eb
        .selectFrom("proxy_counters as pc")
        .select((e) => e.fn.sum<number>("pc.cur_conns").as("n"))
        .whereRef("pc.tun_id", "=", "tunnels.tun_id")
        .whereRef("pc.node_id", "=", "tunnels.node_id")
        .as("cur_conns"),
    );
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

/** Live tunnels using a custom domain under one of `apexes` (`x.<apex>`, any depth), for a wildcard's uses. */
export async function tunnelsUsingDomainsUnder(
  db: Kysely<DB>,
  apexes: string[],
): Promise<{ tun_id: number; uid: number; node_id: number; tun_name: string; domain: string }[]> {
  if (!apexes.length) return [];
  return db
    .selectFrom("tunnel_domains")
    .innerJoin("tunnels", "tunnels.tun_id", "tunnel_domains.tun_id")
    .select(["tunnels.tun_id", "tunnels.uid", "tunnels.node_id", "tunnels.tun_name", "tunnel_domains.domain"])
    .where((eb) => eb.or(apexes.map((a) => eb("tunnel_domains.domain", "like", `%.${a}`))))
    .where("tunnels.status", "<>", TunnelStatus.Deleted)
    .orderBy("tunnels.tun_id")
    .execute();
}

/** Tunnels that hold their slot, port and domains: not deleted, or deleted while frps still holds the proxy. */
export const liveOrHeld = (eb: ExpressionBuilder<DB, "tunnels">) =>
  eb.or([eb("status", "<>", TunnelStatus.Deleted), eb("run_id", "is not", null)]);

/** A tunnel's own row by id (no joins). */
export const tunnelRow = (db: Kysely<DB>, tunId: number): Promise<TunnelRow> =>
  db.selectFrom("tunnels").selectAll().where("tun_id", "=", tunId).executeTakeFirstOrThrow();

/** A node with the level of its plan level (0 without one), for a tunnel on it; undefined when there is none. */
export async function nodeWithLevel(
  db: Kysely<DB>,
  nodeId: number,
): Promise<{ node: NodeRow; level: number } | undefined> {
  const node = await db
    .selectFrom("nodes")
    .leftJoin("plan_levels", "plan_levels.id", "nodes.level_id")
    .selectAll("nodes")
    .select("plan_levels.level")
    .where("nodes.node_id", "=", nodeId)
    .executeTakeFirst();
  if (!node) return undefined;
  const { level, ...row } = node;
  return { node: row, level: level ?? 0 };
}

/** The level of a node's plan level (0 without one). */
export async function levelOf(db: Kysely<DB>, node: Pick<NodeRow, "level_id">): Promise<number> {
  const r = await db.selectFrom("plan_levels").select("level").where("id", "=", node.level_id).executeTakeFirst();
  return r?.level ?? 0;
}

/** How many tunnels of the customer hold a slot (liveOrHeld: what tunnel_limit counts). */
export async function countHeldTunnels(db: Kysely<DB>, uid: number): Promise<number> {
  const r = await db
    .selectFrom("tunnels")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("uid", "=", uid)
    .where(liveOrHeld)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The remote ports the node's tunnels hold, every port of a port range included. */
export async function heldPorts(db: Kysely<DB>, nodeId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom("tunnels")
    .select(["remote_port", "remote_port_end"])
    .where("node_id", "=", nodeId)
    .where(liveOrHeld)
    .where("remote_port", "is not", null)
    .execute();
  const held = new Set<number>();
  for (const r of rows)
    for (let p = r.remote_port ?? 0; p <= (r.remote_port_end ?? r.remote_port ?? 0); p++) held.add(p);
  return held;
}

/** Whether the customer has a live tunnel of that name (other than `exceptTunId`). */
export async function nameTaken(
  db: Kysely<DB>,
  uid: number,
  tunName: string,
  exceptTunId: number | undefined,
): Promise<boolean> {
  let name = db
    .selectFrom("tunnels")
    .select("tun_id")
    .where("uid", "=", uid)
    .where("tun_name", "=", tunName)
    .where("status", "<>", TunnelStatus.Deleted);
  if (exceptTunId) name = name.where("tun_id", "<>", exceptTunId);
  return !!(await name.executeTakeFirst());
}

/**
 * The first port of `from`..`to` that another tunnel (than `exceptTunId`) holds on the node, its
 * single port or a port of its range, or null when all are free.
 */
export async function portTaken(
  db: Kysely<DB>,
  nodeId: number,
  from: number,
  to: number,
  exceptTunId: number | undefined,
): Promise<number | null> {
  let q = db
    .selectFrom("tunnels")
    .select(["remote_port", "remote_port_end"])
    .where("node_id", "=", nodeId)
    .where("remote_port", "<=", to)
    .where((eb) => eb(eb.fn.coalesce("remote_port_end", "remote_port"), ">=", from))
    .where(liveOrHeld);
  if (exceptTunId) q = q.where("tun_id", "<>", exceptTunId);
  const hits = await q.execute();
  if (!hits.length) return null;
  // The lowest port of the asked range that any overlapping tunnel holds.
  return Math.min(...hits.map((h) => Math.max(from, h.remote_port ?? from)));
}

/** One of `domains` that another tunnel (than `exceptTunId`) holds on the node, if any. */
export async function takenDomain(
  db: Kysely<DB>,
  nodeId: number,
  domains: string[],
  exceptTunId: number | undefined,
): Promise<string | undefined> {
  if (!domains.length) return undefined;
  let q = db.selectFrom("tunnel_domains").select("domain").where("node_id", "=", nodeId).where("domain", "in", domains);
  if (exceptTunId) q = q.where("tun_id", "<>", exceptTunId);
  return (await q.executeTakeFirst())?.domain;
}

/** A tunnel's status and lock reason (why a write that expected it live found nothing to change). */
export const tunnelState = (db: Kysely<DB>, tunId: number) =>
  db.selectFrom("tunnels").select(["status", "banned_reason"]).where("tun_id", "=", tunId).executeTakeFirst();

/**
 * Marks a tunnel deleted (−1): its name is free again and its traffic history stays. While frps
 * still holds its proxy (a run id is recorded) it counts toward tunnel_limit and keeps its port
 * and domains; the frp module releases them when frps reports the proxy gone.
 */
export async function markDeleted(trx: Tx, tunId: number, { unlessLocked = false } = {}): Promise<boolean> {
  const t = await trx
    .updateTable("tunnels")
    .set({ status: TunnelStatus.Deleted, updated_at: nowIso() })
    .where("tun_id", "=", tunId)
    .where("status", "not in", unlessLocked ? [TunnelStatus.Deleted, TunnelStatus.Locked] : [TunnelStatus.Deleted])
    .returning(["run_id", "uid"])
    .executeTakeFirst();
  if (!t) return false;
  trx.changes.emit("tunnel.changed", { tun_id: tunId, uid: t.uid });
  if (!t.run_id) await writeTunnelDomains(trx, tunId, 0, []);
  return true;
}

/**
 * The tunnels a list shows, as ids: its filters on tunnels alone. The node, owner, today's
 * traffic and the live counters only add columns (the phone filter is a subquery; the deleted
 * list's node check an EXISTS, below), and on 300k tunnels joining them made the count take
 * seconds. It is both the count's query and the source of a page's ids; only tunnels can be
 * filtered on, so a filter on a joined-in column cannot type-check here and fail at run time.
 */
export function filteredTunnels(db: Kysely<DB>, q: TunnelListQuery & { uid?: number; phone?: string }) {
  let s = db.selectFrom("tunnels");
  if (q.node_id) s = s.where("tunnels.node_id", "=", q.node_id);
  if (q.protocol) s = s.where("tunnels.protocol", "=", q.protocol);
  // One customer's tunnels (their own list, or an operator's uid filter) are few: scanned, not
  // looked up among every tunnel the index matches (a common text matched thousands).
  if (q.name)
    s = s.where(
      q.uid
        ? containsText(db, "tunnels.tun_name", q.name)
        : trigramContains(db, "tunnels.tun_name", q.name, {
            table: "tunnels_name_fts",
            column: "tun_name",
            key: "tunnels.tun_id",
          }),
    );
  if (q.uid) s = s.where("tunnels.uid", "=", q.uid);
  if (q.phone) s = s.where("tunnels.uid", "in", uidsWithPhoneContaining(db, q.phone));
  if (q.status !== undefined) s = s.where("tunnels.status", "=", q.status);
  else s = s.where("tunnels.status", "<>", TunnelStatus.Deleted);
  // Only a deleted tunnel may point at a deleted node (deleteNode refuses a node with live ones,
  // under lockNode), and the deleted list shows those whose node is still there. The other lists
  // need no look at nodes: a customer's count 48 → 14 µs (SQLite), 6k locked tunnels 1.0 → 0.5 ms
  // (PostgreSQL).
  if (q.status === TunnelStatus.Deleted)
    s = s.where(({ exists, selectFrom }) =>
      exists(selectFrom("nodes").select("nodes.node_id").whereRef("nodes.node_id", "=", "tunnels.node_id")),
    );
  return s;
}

/**
 * A page of tunnels in two steps: the page's ids from `filtered` (the count's query: tunnels
 * alone), newest first, then the list's joined rows of those ids. OFFSET then skips
 * bare tunnel rows instead of joined ones: a deep page of 300k tunnels took 130 ms, now 14.
 */
export async function pageTunnels<R>(
  db: Kysely<DB>,
  filtered: ReturnType<typeof filteredTunnels>,
  page: number,
  size: number,
  present: (r: TunnelJoinedRow) => R,
  /** operators' lists: their large totals may be a few seconds old */
  memoTotal = false,
): Promise<Paged<R>> {
  return pageOf(
    page,
    size,
    async (limit, offset) => {
      const rows = await selectTunnels(db)
        .where(await pageIds(db, filtered, "tunnels.tun_id", limit, offset))
        .orderBy("tunnels.tun_id", "desc")
        .execute();
      return rows.map(present);
    },
    () => countRows(filtered, memoTotal ? db : undefined),
  );
}

/** The customers with live tunnels on any of `nodeIds` (a maintenance announcement tells them). */
export async function customersOnNodes(db: Kysely<DB>, nodeIds: readonly number[]): Promise<number[]> {
  if (!nodeIds.length) return [];
  const rows = await db
    .selectFrom("tunnels")
    .select("uid")
    .distinct()
    .where("node_id", "in", nodeIds)
    .where("status", "<>", TunnelStatus.Deleted)
    .orderBy("uid")
    .execute();
  return rows.map((r) => r.uid);
}
