import { maskName, type PayeeNameCheck, ProcessStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { nameHash, normaliseName, verifySecret } from "./keyed-hash";

/**
 * Reads of customers' identity verifications for other modules (the affiliate programme: rebates
 * wait for the invitee's verified identity, external withdrawals need the customer's own). Reads
 * only; the verification itself is verify.service.ts's. The keyed hashes (ID number, full name)
 * never leave the server: callers compare hashes, they do not show them.
 */

/** What other modules may know of a customer's verification. */
export interface VerifiedIdentity {
  uid: number;
  /** ProcessStatus (0 none, 1 done, 2 processing, 3 rejected) */
  status: number;
  /** whether the verification is done and holds its number */
  verified: boolean;
  /** the verified name as stored, masked (`张*`) */
  name_masked: string | null;
  /** the keyed hash of the ID number while it is held (processing or done) */
  id_hash: string | null;
  /** the keyed hash of the full verified name, once done; null when done before it was kept */
  name_hash: string | null;
}

const NONE = (uid: number): VerifiedIdentity => ({
  uid,
  status: ProcessStatus.None,
  verified: false,
  name_masked: null,
  id_hash: null,
  name_hash: null,
});

/** The verifications of these customers (every uid answered; none → status 0). */
export async function identitiesOf(db: Kysely<DB>, uids: readonly number[]): Promise<Map<number, VerifiedIdentity>> {
  const out = new Map<number, VerifiedIdentity>(uids.map((u) => [u, NONE(u)]));
  if (!uids.length) return out;
  const rows = await db
    .selectFrom("verifications")
    .select(["uid", "status", "real_name_masked", "id_hash", "name_hash"])
    .where("uid", "in", [...new Set(uids)])
    .execute();
  for (const r of rows) {
    const verified = r.status === ProcessStatus.Done && r.id_hash !== null;
    out.set(r.uid, {
      uid: r.uid,
      status: r.status,
      verified,
      name_masked: r.real_name_masked,
      id_hash: r.id_hash,
      name_hash: verified ? r.name_hash : null,
    });
  }
  return out;
}

/** The uids whose verification is done, as a subquery (`uid in (…)`). */
export const verifiedUids = (db: Kysely<DB>) =>
  db
    .selectFrom("verifications")
    .select("verifications.uid")
    .where("verifications.status", "=", ProcessStatus.Done)
    .where("verifications.id_hash", "is not", null);

/**
 * Whether a payee name is the verified name, and how that was decided: "exact", the keyed hashes of the two
 * normalised full names; "masked", only the first character and the length (`张*`), for a
 * verification done before full-name hashes were kept (the operator is shown it is the weaker
 * check; the payment channel's own real-name check on the account does the rest).
 */
export interface PayeeCheck {
  matches: boolean;
  basis: PayeeNameCheck;
}

/**
 * A checker of payee names against verified identities (loads the hash secret once, so read it
 * outside a transaction). Answers null for a customer who is not verified.
 */
export async function payeeChecker(
  ctx: AppContext,
): Promise<(identity: VerifiedIdentity | undefined, payee: string) => PayeeCheck | null> {
  const secret = await verifySecret(ctx);
  return (identity, payee) => {
    if (!identity?.verified || identity.name_masked === null) return null;
    if (identity.name_hash) return { matches: nameHash(secret, payee) === identity.name_hash, basis: "exact" };
    return { matches: maskName(normaliseName(payee)) === identity.name_masked, basis: "masked" };
  };
}
