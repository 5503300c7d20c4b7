import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";

/**
 * Drops what the frp module keeps about a node (its stored counters, runtime state and kicks)
 * when the node is deleted; call inside the deleting transaction. The frp module owns these tables.
 */
export async function forgetNode(trx: Kysely<DB>, nodeId: number): Promise<void> {
  await trx.deleteFrom("proxy_counters").where("node_id", "=", nodeId).execute();
  await trx.deleteFrom("node_runtime").where("node_id", "=", nodeId).execute();
  await trx.deleteFrom("frp_kicks").where("node_id", "=", nodeId).execute();
}
