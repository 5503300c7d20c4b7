import { TunnelStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/*
 * What the agents module (the node agent's routes) needs of frp's tables: the customers a node's
 * agent must know, and the agent's contact and grace on node_runtime (the node page shows them).
 * Decisions and billing go through FrpDecisionCache and poll-node.ts's billAgentReading.
 */

/**
 * The customers whose decisions a node's agent needs in its copy: those with a tunnel on the node
 * that is not deleted, or deleted and still held by a session (which is to be cut off), and those
 * with a tunnel moved away while a session there held it (a moved hold the agent refuses) — the
 * tunnels FrpDecisionCache keeps in a user entry (onNode).
 */
export async function usersOnNode(db: Kysely<DB>, nodeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("tunnels")
    .select("uid")
    .distinct()
    .where((eb) =>
      eb.or([
        eb.and([
          eb("node_id", "=", nodeId),
          eb.or([eb("status", "<>", TunnelStatus.Deleted), eb("run_id", "is not", null)]),
        ]),
        eb("moved_node_id", "=", nodeId),
      ]),
    )
    .orderBy("uid")
    .execute();
  return rows.map((r) => r.uid);
}

/** The node's agent reached the console at `at` (its stream is open, it looked up or posted). */
export async function noteAgentContact(ctx: AppContext, nodeId: number, at: string): Promise<void> {
  await ctx.db
    .insertInto("node_runtime")
    .values({ node_id: nodeId, agent_seen_at: at })
    .onConflict((oc) => oc.column("node_id").doUpdateSet({ agent_seen_at: at }))
    .execute();
}

/** The agent's grace as it reported it: "entered"/"expired" while the console was unreachable, "left" once back. */
export async function setAgentGrace(
  trx: Tx,
  nodeId: number,
  state: "entered" | "expired" | "left",
  at: string,
): Promise<void> {
  const values =
    state === "left" ? { agent_grace: null, agent_grace_at: at } : { agent_grace: state, agent_grace_at: at };
  await trx
    .insertInto("node_runtime")
    .values({ node_id: nodeId, ...values })
    .onConflict((oc) => oc.column("node_id").doUpdateSet(values))
    .execute();
}
