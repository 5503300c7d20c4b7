import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { DomainRow } from "./domains.table";

/**
 * A domain its customer holds now: verified, or flagged (its TXT record vanished at a re-check)
 * and still within its grace period. The rows other modules (certificates) may rely on.
 */
export interface VerifiedDomain {
  id: number;
  uid: number;
  /** canonical form (normalizeDomain) */
  domain: string;
  /** the node its CNAME points at */
  node_id: number;
  status: "verified" | "flagged";
  verified_at: string | null;
  /** when a re-check found the TXT record gone (status flagged), else null */
  flagged_at: string | null;
}

const toVerified = (r: DomainRow): VerifiedDomain => ({
  id: r.id,
  uid: r.uid,
  domain: r.domain,
  node_id: r.node_id,
  status: r.status as VerifiedDomain["status"],
  verified_at: r.verified_at,
  flagged_at: r.flagged_at,
});

/** Rows that hold their name: `verified_domain` is set exactly while the state is verified or flagged. */
const held = (db: Kysely<DB>) => db.selectFrom("domains").selectAll().where("verified_domain", "is not", null);

/** Who holds a name now (any customer), or undefined. */
export async function domainHolder(db: Kysely<DB>, domain: string): Promise<VerifiedDomain | undefined> {
  const row = await held(db).where("verified_domain", "=", domain).executeTakeFirst();
  return row ? toVerified(row) : undefined;
}
