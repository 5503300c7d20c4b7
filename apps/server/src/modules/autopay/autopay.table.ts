import type { Selectable } from "kysely";

/** Auto-renewal is on for a subscription while its row exists. */
export interface AutopayRenewalTable {
  subscription_id: number;
  uid: number;
  /** the Shanghai day (YYYY-MM-DD) of the last renewal the balance could not pay; one try a day */
  failed_on: string | null;
  created_at: string;
}

/** A customer's automatic traffic top-up rule (one per customer). */
export interface AutopayTopupRuleTable {
  uid: number;
  enabled: number;
  /** the traffic pack bought */
  plan_id: number;
  period: string;
  /** % of traffic left below which it buys */
  threshold: number;
  /** fen per Asia/Shanghai calendar month */
  monthly_cap: number;
  /** 1 while below the threshold (a purchase waits for the next crossing) */
  below: number;
  /** times it crossed below: the key of each crossing's purchase */
  crossings: number;
  updated_at: string;
}
export type TopupRuleRow = Selectable<AutopayTopupRuleTable>;

/** One automatic purchase; the key makes each period's renewal and each crossing's top-up once. */
export interface AutopayPurchaseTable {
  dedupe_key: string;
  uid: number;
  /** "renewal" | "topup" */
  kind: string;
  trade_id: string;
  amount: number;
  /** YYYY-MM, Asia/Shanghai */
  month: string;
  created_at: string;
}

/** Owned by the autopay module. */
export interface AutopayTables {
  autopay_renewals: AutopayRenewalTable;
  autopay_topup_rules: AutopayTopupRuleTable;
  autopay_purchases: AutopayPurchaseTable;
}
