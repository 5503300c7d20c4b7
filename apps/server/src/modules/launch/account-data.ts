import type { Tx } from "../../shared/tx";

/**
 * Erases the account's launch token (docs/leaving.md). Kept through the cool-off: the account's
 * tunnels are stopped then, and a cancelled deletion brings its installs back as they were.
 */
export async function eraseLaunchToken(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("launch_tokens").where("uid", "=", uid).execute();
}
