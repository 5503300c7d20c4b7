import { TunnelStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import { isPostgres } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { largeMemo } from "../../shared/large-memo";
import type { NodeRow } from "./nodes.table";

/**
 * Nodes with everything both consoles show: area, network type and level names, the poller's
 * last runtime snapshot and the number of live tunnels.
 */
export function selectNodes(db: Kysely<DB>, { tunnelCount = true } = {}) {
  return db
    .selectFrom("nodes")
    .leftJoin("areas", "areas.area_id", "nodes.area_id")
    .leftJoin("net_types", "net_types.id", "nodes.net_type_id")
    .leftJoin("plan_levels", "plan_levels.id", "nodes.level_id")
    .leftJoin("node_runtime", "node_runtime.node_id", "nodes.node_id")
    .selectAll("nodes")
    .select([
      "areas.area_name",
      "areas.icp_required",
      "net_types.name as net_type_name",
      "plan_levels.name as level_name",
      "plan_levels.level as level",
      "node_runtime.version as rt_version",
      "node_runtime.cur_conns as rt_cur_conns",
      "node_runtime.client_counts as rt_clients",
      "node_runtime.proxy_counts as rt_proxy_counts",
      "node_runtime.traffic_in as rt_traffic_in",
      "node_runtime.traffic_out as rt_traffic_out",
      "node_runtime.last_poll_at as rt_last_poll_at",
      "node_runtime.last_error as rt_last_error",
      "node_runtime.rollover_skew_at as rt_rollover_skew_at",
      "node_runtime.agent_seen_at as rt_agent_seen_at",
      "node_runtime.agent_grace as rt_agent_grace",
      "node_runtime.agent_grace_at as rt_agent_grace_at",
    ])
    .$if(tunnelCount, (q) =>
      q.select((eb) =>
        eb
          .selectFrom("tunnels")
          .select((e) => e.fn.countAll<number>().as("n"))
          .whereRef("tunnels.node_id", "=", "nodes.node_id")
          .where("tunnels.status", "<>", TunnelStatus.Deleted)
          .as("tunnel_count"),
      ),
    );
}

/**
 * Locks the node's row until commit and returns it as it is under the lock (undefined when the
 * node is gone). Changes to a node and the rows that depend on it take it in one of two modes:
 * - "update": deleteNode (then counts the node's live tunnels) and updateNode (then checks its
 *   live tunnels still fit the new ports, domains and range);
 * - "key share": whatever adds or changes a row that depends on the node - a tunnel created or
 *   edited (checked against the row returned here), a poll's writes - which only "update" waits
 *   for.
 * So a tunnel written during a node's edit or deletion is either committed first and seen by it,
 * or is checked against the node as it is after it (or finds no node): no live tunnel is stranded
 * on a deleted node or outside its node's ports. SQLite's write transactions run one at a time,
 * so there a plain read does.
 */
export async function lockNode(
  trx: Kysely<DB>,
  nodeId: number,
  mode: "update" | "key share",
): Promise<NodeRow | undefined> {
  const sel = trx.selectFrom("nodes").selectAll().where("node_id", "=", nodeId);
  return (isPostgres(trx) ? (mode === "update" ? sel.forUpdate() : sel.forKeyShare()) : sel).executeTakeFirst();
}

/**
 * Live tunnels per node, for the node lists: one grouped read instead of a count per listed node,
 * a few seconds old at most once there are many tunnels (shared/large-memo.ts).
 */
export async function liveTunnelsByNode(db: Kysely<DB>): Promise<Map<number, number>> {
  const rows = await largeMemo(
    db,
    "nodes:live-tunnels",
    async (read) =>
      (
        await read(
          db
            .selectFrom("tunnels")
            .select(["node_id", (eb) => eb.fn.countAll<number | string>().as("n")])
            .where("status", "<>", TunnelStatus.Deleted)
            .groupBy("node_id")
            .compile(),
        )
      ).map((r) => [r.node_id, Number(r.n)] as const),
    (counts) => counts.reduce((sum, [, n]) => sum + n, 0),
  );
  return new Map(rows);
}

export type NodeJoinedRow = Awaited<ReturnType<ReturnType<typeof selectNodes>["executeTakeFirstOrThrow"]>>;

/** One node by id with its joins, or undefined. */
export const findNode = (db: Kysely<DB>, nodeId: number): Promise<NodeJoinedRow | undefined> =>
  selectNodes(db).where("nodes.node_id", "=", nodeId).executeTakeFirst();

/** What the domains module needs of a node: where a customer's CNAME points, and its area's ICP rule. */
export interface DomainTargetNode {
  node_id: number;
  name: string;
  host: string;
  subdomain_host: string | null;
  status: number;
  /** 1 when the node's area requires an ICP filing number for custom domains */
  icp_required: number;
}

/** The nodes with these ids (unknown ids are left out), for the domains module. */
export async function domainTargetNodes(db: Kysely<DB>, nodeIds: number[]): Promise<Map<number, DomainTargetNode>> {
  if (!nodeIds.length) return new Map();
  const rows = await db
    .selectFrom("nodes")
    .leftJoin("areas", "areas.area_id", "nodes.area_id")
    .select(["nodes.node_id", "nodes.name", "nodes.host", "nodes.subdomain_host", "nodes.status", "areas.icp_required"])
    .where("nodes.node_id", "in", [...new Set(nodeIds)])
    .execute();
  return new Map(rows.map((r) => [r.node_id, { ...r, icp_required: Number(r.icp_required ?? 0) }]));
}

/** Every node's host and subdomain host (lower case; IP addresses left out: they never match a domain). */
export async function nodeHostNames(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom("nodes").select(["host", "subdomain_host"]).execute();
  const out = new Set<string>();
  for (const r of rows) {
    if (r.subdomain_host) out.add(r.subdomain_host.toLowerCase());
    if (r.host && /[a-z]/i.test(r.host)) out.add(r.host.toLowerCase());
  }
  return [...out];
}
