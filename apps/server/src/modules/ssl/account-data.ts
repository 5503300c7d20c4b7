import type { Tx } from "../../shared/tx";

/* The ssl module's part of an account's erasure (docs/leaving.md). */

/**
 * Erases the account's certificates (uploaded or issued: the leaf, chain and encrypted private key)
 * and its ACME orders (their keys and challenge values), in the erasure's transaction. Nothing of
 * them is kept for accounting, and a key left behind would outlive the domain's release.
 */
export async function eraseSslOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("ssl_orders").where("uid", "=", uid).execute();
  await trx.deleteFrom("ssl_certificates").where("uid", "=", uid).execute();
}
