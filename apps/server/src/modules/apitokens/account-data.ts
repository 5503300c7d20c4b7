import type { Tx } from "../../shared/tx";

/**
 * Erases the account's API tokens (docs/leaving.md): their names, scopes and last-use addresses.
 * Already revoked when the deletion was asked for (revokeAllApiTokens).
 */
export async function eraseApiTokens(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("api_tokens").where("uid", "=", uid).execute();
}
