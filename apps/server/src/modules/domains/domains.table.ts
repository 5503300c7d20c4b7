import type { DomainChecks } from "@burrow/contract";
import type { Generated, Selectable } from "kysely";

/**
 * A customer's domain (see the domains migration). States: `pending` (added, not yet verified, or
 * lapsed), `verified`, `flagged` (a re-check found the TXT record gone; still usable until the
 * grace period ends), `unbound` (an operator took it away; never usable again by this row).
 */
export interface DomainTable extends DomainChecks {
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
  unbound_at: string | null;
  created_at: string;
  updated_at: string;
}
export type DomainRow = Selectable<DomainTable>;

export interface DomainTables {
  domains: DomainTable;
}
