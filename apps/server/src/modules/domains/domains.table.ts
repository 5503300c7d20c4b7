import type { Generated, Selectable } from "kysely";

/**
 * A customer's domain (see the domains migration). States: `pending` (added, not yet verified, or
 * lapsed), `verified`, `flagged` (a re-check found the TXT record gone; still usable until the
 * grace period ends), `unbound` (an operator took it away; never usable again by this row).
 */
export interface DomainTable {
  id: Generated<number>;
  uid: number;
  /** canonical form (normalizeDomain) */
  domain: string;
  /** the node the CNAME must point at; tunnels using the domain must run on it */
  node_id: number;
  /** the value of the TXT record at `_burrow-challenge.<domain>` */
  token: string;
  status: string;
  /** = domain while this row holds the name (verified or flagged), else NULL; unique */
  verified_domain: string | null;
  icp_no: string | null;
  /** what the last check found wrong, in words the customer can act on */
  problem: string | null;
  verified_at: string | null;
  checked_at: string | null;
  flagged_at: string | null;
  unbound_at: string | null;
  unbind_reason: string | null;
  created_at: string;
  updated_at: string;
}
export type DomainRow = Selectable<DomainTable>;

export interface DomainTables {
  domains: DomainTable;
}
