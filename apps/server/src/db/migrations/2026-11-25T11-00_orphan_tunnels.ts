import { type Kysely, sql } from "kysely";

/**
 * Tunnels left on a deleted node, deleted as that node's deletion required (issue 15, fifth round).
 * Before deleteNode and createTunnel shared the node's row lock, a tunnel created while its node
 * was being deleted stayed on the deleted node, hidden from the lists (they joined nodes) yet
 * holding its owner's tunnel slot, port and domains. The lists no longer join nodes for live
 * tunnels, so these rows are now what deleting the node would have left: status −1, no frps
 * session (the node is gone) and no domains.
 * Frozen: never edit, add a new migration instead.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const orphans = db
    .selectFrom("tunnels")
    .select("tun_id")
    .where(sql<boolean>`not exists (select 1 from nodes where nodes.node_id = tunnels.node_id)`)
    .where((eb) => eb.or([eb("status", "<>", -1), eb("run_id", "is not", null)]));
  await db.deleteFrom("tunnel_domains").where("tun_id", "in", orphans).execute();
  await db
    .updateTable("tunnels")
    .set({ status: -1, run_id: null, updated_at: new Date().toISOString() })
    .where("tun_id", "in", orphans)
    .execute();
}

/** Nothing to undo: the rows were unusable, and which were live is not kept. */
export async function down(): Promise<void> {}
