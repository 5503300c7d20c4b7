import { NodeStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";

/** Nodes by status, and the ones an operator should look at (offline or in exception), for the overview. */
export async function nodeStatusSummary(db: Kysely<DB>): Promise<{
  online: number;
  offline: number;
  exception: number;
  off_shelf: number;
  attention: { node_id: number; name: string; status: number }[];
}> {
  const rows = await db.selectFrom("nodes").select(["node_id", "name", "status"]).orderBy("node_id").execute();
  const count = (s: number) => rows.filter((r) => r.status === s).length;
  return {
    online: count(NodeStatus.Online),
    offline: count(NodeStatus.Offline),
    exception: count(NodeStatus.Exception),
    off_shelf: count(NodeStatus.OffShelf),
    attention: rows.filter((r) => r.status === NodeStatus.Offline || r.status === NodeStatus.Exception),
  };
}
