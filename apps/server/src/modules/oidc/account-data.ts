import type { Tx } from "../../shared/tx";

/** Erases the account's third-party sign-in bindings (docs/leaving.md): the provider's subject ids. */
export async function eraseOidcIdentities(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("oidc_identities").where("uid", "=", uid).execute();
}
