import type { Tx } from "../../shared/tx";

/* The uptime module's part of an account's erasure (docs/leaving.md). */

/** Erases the account's public status pages (their slugs); the tunnels' status history goes with its 90-day pruning. */
export async function eraseUptimeOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("uptime_pages").where("uid", "=", uid).execute();
}
