import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { lockNode } from "../nodes/nodes.repository";

/*
 * The two checks that open every write transaction of a poll: the node is still there
 * (holdNode), and, for writes of counters, no other poll wrote them since this one read them
 * (claimCounters, on the node's counters version).
 */

/** Thrown when the node was deleted while it was polled: the poll writes nothing after that. */
export class NodeGone extends Error {
  constructor(nodeId: number) {
    super(`node ${nodeId} was deleted while it was polled`);
    this.name = "NodeGone";
  }
}

/**
 * First thing in each of a poll's write transactions: the node is still there, and stays until
 * commit (lockNode's key share, which a deletion waits for). Without it a node deleted mid-poll
 * got back what its deletion removed (forgetNode's counters and runtime row, releaseNodeHolds'
 * holds) or a kick, with nothing left to ever remove them.
 */
export async function holdNode(trx: Kysely<DB>, nodeId: number): Promise<void> {
  if (!(await lockNode(trx, nodeId, "key share"))) throw new NodeGone(nodeId);
}

/** Thrown when another poll wrote the node's counters after this one read them. */
export class PollConflict extends Error {
  constructor(nodeId: number) {
    super(`node ${nodeId} was polled by someone else meanwhile`);
    this.name = "PollConflict";
  }
}

/**
 * Compare-and-set on the node's counters version, first thing in the write transaction: a poll
 * that read version v writes only if it is still v. Leases keep two processes from polling one
 * node at once; this keeps even a poll that outlived its lease from counting bytes twice.
 */
export async function claimCounters(trx: Kysely<DB>, nodeId: number, readVersion: number | null): Promise<void> {
  if (readVersion === null) {
    // First poll of the node: the row's primary key lets only one first poll through.
    await trx.insertInto("node_runtime").values({ node_id: nodeId, counters_version: 1 }).execute();
    return;
  }
  const r = await trx
    .updateTable("node_runtime")
    .set({ counters_version: readVersion + 1 })
    .where("node_id", "=", nodeId)
    .where("counters_version", "=", readVersion)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new PollConflict(nodeId);
}
