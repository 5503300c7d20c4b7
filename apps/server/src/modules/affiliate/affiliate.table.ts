import type { WithdrawalRow } from "@burrow/contract";
import type { Generated, Selectable } from "kysely";

/** One rebate: what an invitee's qualifying order earned its inviter (see the affiliate migration). */
export interface AffRebateTable {
  id: Generated<number>;
  /** the inviter, who earns it */
  uid: number;
  invitee_uid: number;
  /** masked when written (`138****0000`) */
  invitee_phone: string;
  trade_id: string;
  order_type: number;
  /** what the invitee paid, fen */
  order_amount: number;
  /** the rate when the order was paid, basis points */
  rate_bp: number;
  /** floor(order_amount × rate_bp / 10000), fen */
  amount: number;
  /** taken back by a refund of the order, fen (≤ amount) */
  reversed: Generated<number>;
  /**
   * fen of order_amount that left since, for rebate purposes: the order's share of refunds (its own
   * and those of orders its value went into) and of upgrade credit moved to the balance
   */
  refunded: Generated<number>;
  /** the invitee's keyed ID-number hash when the rebate was released (verify/identity.ts) */
  invitee_id_hash: string | null;
  /** RebateState: 1 pending, 2 available, 3 reversed */
  state: number;
  release_at: string;
  released_at: string | null;
  created_at: string;
}
export type AffRebateRow = Selectable<AffRebateTable>;

/** One withdrawal request. */
export interface AffWithdrawalTable extends Omit<WithdrawalRow, "id" | "method"> {
  id: Generated<number>;
  uid: number;
  /** balance, alipay, bank (WithdrawMethod, stored as text); `account` is stored whole, masked when shown */
  method: string;
  operator_uid: number | null;
}
export type AffWithdrawalRow = Selectable<AffWithdrawalTable>;

export interface AffiliateTables {
  aff_rebates: AffRebateTable;
  aff_withdrawals: AffWithdrawalTable;
}
