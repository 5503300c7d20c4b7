import { z } from "zod";
import { type PlanPeriod, PlanPeriods } from "./enums";

/**
 * Automatic purchases from the balance (docs/billing.md "Automatic purchases"): renewing a plan
 * before it ends, and buying a traffic pack when little traffic is left, under a monthly cap.
 * Money is integer fen.
 */

/** The top-up threshold when the customer sets none: buy when less than 5 % of the traffic is left. */
export const DEFAULT_TOPUP_THRESHOLD = 5;
/** The highest monthly cap a customer may set (fen): 10,000 yuan. */
export const MAX_TOPUP_MONTHLY_CAP = 1_000_000;
/** How long before a plan's end auto-renewal buys the next period (ms): one day. */
export const AUTO_RENEW_LEAD_MS = 24 * 3_600_000;
/** How long before a plan's end the customer hears that it will be renewed (ms): three days. */
export const AUTO_RENEW_NOTICE_MS = 3 * 24 * 3_600_000;

/** PUT /user/autopay/renewal: auto-renewal of one of the customer's plan subscriptions on or off. */
export const AutoRenewBody = z.object({
  subscription_id: z.number({ error: "请选择套餐" }).int("套餐无效").min(1, "套餐无效"),
  enabled: z.boolean({ error: "enabled 须为 true 或 false" }),
});
export type AutoRenewBody = z.infer<typeof AutoRenewBody>;

/** PUT /user/autopay/topup: the customer's automatic traffic top-up rule. */
export const TopupRuleBody = z.object({
  enabled: z.boolean({ error: "enabled 须为 true 或 false" }),
  /** the traffic pack to buy (a plan of type 3 on sale) */
  plan_id: z.number({ error: "请选择流量包" }).int("流量包无效").min(1, "流量包无效"),
  period: z.enum(PlanPeriods, { error: "请选择购买周期" }),
  /** buy when less than this share (%) of the traffic (plan and packs together) is left */
  threshold: z
    .number({ error: "阈值须为百分比" })
    .int("阈值须为整数百分比")
    .min(1, "阈值至少 1%")
    .max(50, "阈值最多 50%")
    .default(DEFAULT_TOPUP_THRESHOLD),
  /** the most automatic top-ups may spend in one calendar month (Asia/Shanghai), fen */
  monthly_cap: z
    .number({ error: "每月上限须为金额（分）" })
    .int("每月上限须为整数（分）")
    .min(1, "每月上限至少 1 分")
    .max(MAX_TOPUP_MONTHLY_CAP, `每月上限最多 ${MAX_TOPUP_MONTHLY_CAP / 100} 元`),
});
export type TopupRuleBody = z.infer<typeof TopupRuleBody>;

/** The customer's top-up rule as saved. */
export interface TopupRule {
  enabled: boolean;
  plan_id: number;
  /** null when the pack no longer exists */
  plan_name: string | null;
  period: PlanPeriod;
  threshold: number;
  monthly_cap: number;
  /** whether the traffic left was below the threshold at the last evaluation (the next buy waits for it to rise above) */
  below: boolean;
  updated_at: string;
}

/** GET /user/autopay → data */
export interface AutopayState {
  /** ids of the customer's subscriptions with auto-renewal on */
  renewals: number[];
  topup: TopupRule | null;
  /** the Asia/Shanghai calendar month counted, YYYY-MM */
  month: string;
  /** fen automatic top-ups spent this month (counted against the cap) */
  spent_this_month: number;
}
