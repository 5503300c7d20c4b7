import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The domains module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** The customer's custom domains, for the export: without the verification token. */
export function domainsDataOf(db: Kysely<DB>, uid: number) {
  return db
    .selectFrom("domains")
    .select(["domain", "node_id", "status", "icp_no", "verified_at", "unbound_at", "unbind_reason", "created_at"])
    .where("uid", "=", uid)
    .orderBy("id")
    .execute();
}

/** Erases the account's custom domains (after its tunnels were deleted, in the erasure's transaction). */
export async function eraseDomainsOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("domains").where("uid", "=", uid).execute();
}
