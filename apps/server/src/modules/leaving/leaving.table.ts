import type { Generated, Selectable } from "kysely";

/** A customer's request to delete the account (docs/leaving.md). */
export interface AccountDeletionTable {
  id: Generated<number>;
  uid: number;
  /** "pending" (cool-off), "cancelled", "done" (personal data erased) */
  status: string;
  requested_at: string;
  executes_at: string;
  cancelled_at: string | null;
  erased_at: string | null;
  /** fen of balance and affiliate earnings the customer agreed to forfeit */
  forfeit_fen: Generated<number>;
  /** JSON array of the tun_ids the request disabled (enabled again on a cancel) */
  stopped_tunnels: Generated<string>;
}
export type AccountDeletionRow = Selectable<AccountDeletionTable>;

export interface LeavingTables {
  account_deletions: AccountDeletionTable;
}
