import { maskName, ProcessStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";

/**
 * Reads of customers' identity verifications for other modules (the affiliate programme: rebates
 * wait for the invitee's verified identity, external withdrawals need the customer's own). Reads
 * only; the verification itself is verify.service.ts's. The keyed ID-number hash never leaves
 * the server: callers compare hashes, they do not show them.
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
}

const NONE = (uid: number): VerifiedIdentity => ({
  uid,
  status: ProcessStatus.None,
  verified: false,
  name_masked: null,
  id_hash: null,
});

/** The verifications of these customers (every uid answered; none → status 0). */
export async function identitiesOf(db: Kysely<DB>, uids: readonly number[]): Promise<Map<number, VerifiedIdentity>> {
  const out = new Map<number, VerifiedIdentity>(uids.map((u) => [u, NONE(u)]));
  if (!uids.length) return out;
  const rows = await db
    .selectFrom("verifications")
    .select(["uid", "status", "real_name_masked", "id_hash"])
    .where("uid", "in", [...new Set(uids)])
    .execute();
  for (const r of rows) {
    out.set(r.uid, {
      uid: r.uid,
      status: r.status,
      verified: r.status === ProcessStatus.Done && r.id_hash !== null,
      name_masked: r.real_name_masked,
      id_hash: r.id_hash,
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
 * Whether a payee name can be the verified name. Only the masked form is stored (the first
 * character and the length: `张*`), so that is what is compared; the payment channel's own
 * real-name check on the account (Alipay, the bank) does the rest when the operator pays out.
 */
export const nameMatchesVerified = (identity: VerifiedIdentity, name: string): boolean =>
  identity.verified && identity.name_masked !== null && maskName(name.trim()) === identity.name_masked;
