import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import type { PlanPeriod } from "./enums";
import { feeDiscount, fenAmount, flag, positiveId } from "./store-fields";

/** Plans and traffic packs: the operators' catalogue and the customers' store. Money is integer fen, traffic in a plan is GB. */

// ---------------------------------------------------------------------------------------------
// Plans (operators)

/** The plan fields of SPEC §3 (plus on_sale / is_default), without defaults: shared by create and patch. */
const planFields = {
  name: z.string().trim().min(1, "请输入套餐名称").max(32, "套餐名称最多 32 个字符"),
  tag: z.string().trim().max(16, "标签最多 16 个字符"),
  simple_desc: z.string().trim().max(200, "简介最多 200 个字符"),
  /** GB per month of the period bought (a quarterly purchase gives 3 × traffic) */
  traffic: z.number({ error: "流量必须是数字" }).int("流量必须是整数 GB").min(0, "流量不能为负数").max(1_000_000),
  /** the order type it is sold as: 2 plan subscription, 3 traffic add-on pack */
  type: z.literal([2, 3], { error: "类型只能是 2（套餐）或 3（流量包）" }),
  level_id: positiveId("商店等级"),
  sort: z.number().int("排序必须是整数").min(-100000).max(100000),
  /** Mbps, 0 = unlimited */
  bandwidth: z.number().int("带宽必须是整数").min(0, "带宽不能为负数").max(100000),
  tunnel_limit: z.number().int("隧道数必须是整数").min(0, "隧道数不能为负数").max(100000),
  tunnel_peer_port_limit: z.number().int("端口数必须是整数").min(0, "端口数不能为负数").max(100000),
  /** fen per period; null = this period is not on sale */
  monthly_fee: fenAmount("月付价格").nullable(),
  /** multiplier applied to the fee: 0.85 = 15 % off */
  monthly_fee_discount: feeDiscount,
  quarterly_fee: fenAmount("季付价格").nullable(),
  quarterly_fee_discount: feeDiscount,
  semiannual_fee: fenAmount("半年付价格").nullable(),
  semiannual_fee_discount: feeDiscount,
  annual_fee: fenAmount("年付价格").nullable(),
  annual_fee_discount: feeDiscount,
  /** false: listed to operators only, not sold (existing subscriptions may still renew) */
  on_sale: flag,
  /** the plan every new customer gets for free (exactly one; setting it clears the others) */
  is_default: flag,
};

/** POST /super/plan */
export const CreatePlanBody = z.object({
  ...planFields,
  tag: planFields.tag.default(""),
  simple_desc: planFields.simple_desc.default(""),
  sort: planFields.sort.default(0),
  monthly_fee: planFields.monthly_fee.default(null),
  monthly_fee_discount: feeDiscount.default(1),
  quarterly_fee: planFields.quarterly_fee.default(null),
  quarterly_fee_discount: feeDiscount.default(1),
  semiannual_fee: planFields.semiannual_fee.default(null),
  semiannual_fee_discount: feeDiscount.default(1),
  annual_fee: planFields.annual_fee.default(null),
  annual_fee_discount: feeDiscount.default(1),
  on_sale: flag.default(true),
  is_default: flag.default(false),
});
export type CreatePlanBody = z.infer<typeof CreatePlanBody>;

/** PATCH /super/plan: id plus any fields to change. */
export const UpdatePlanBody = z
  .object({ id: positiveId("套餐"), ...planFields })
  .partial()
  .required({ id: true });
export type UpdatePlanBody = z.infer<typeof UpdatePlanBody>;

/** DELETE /super/plan (body, or query) */
export const PlanIdBody = z.object({ id: z.coerce.number().int().min(1, "套餐无效") });

/** GET /super/plan */
export const AdminPlanQuery = PageQuery.extend({
  name: optionalText(32),
  /** 2 plans, 3 traffic packs */
  order_type: optionalInt(2, 3),
  /** the store level (the admin page's level filter) */
  level_id: optionalInt(1),
});
export type AdminPlanQuery = z.infer<typeof AdminPlanQuery>;

/** What a plan gives (SPEC §3), shown alike to operators and in the store. */
export interface PlanTerms {
  name: string;
  tag: string;
  simple_desc: string;
  /** traffic in GB per period */
  traffic: number;
  /** order type it is sold as: 2 plan subscription, 3 traffic pack */
  type: number;
  level_id: number;
  sort: number;
  /** Mbps */
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
}

/** A plan's settings (SPEC §3) as stored and as shown: the plans table's columns and the operator's view share them. */
export interface PlanFields extends PlanTerms {
  monthly_fee: number | null;
  monthly_fee_discount: number;
  quarterly_fee: number | null;
  quarterly_fee_discount: number;
  semiannual_fee: number | null;
  semiannual_fee_discount: number;
  annual_fee: number | null;
  annual_fee_discount: number;
}

/** The fees of a plan sold by the month only: the other periods unpriced, no discounts. */
export const MONTHLY_ONLY_FEES = {
  quarterly_fee: null,
  quarterly_fee_discount: 1,
  semiannual_fee: null,
  semiannual_fee_discount: 1,
  annual_fee: null,
  annual_fee_discount: 1,
} satisfies Partial<PlanFields>;

/** One plan as operators see it: every SPEC §3 field. */
export interface AdminPlan extends PlanFields {
  id: number;
  level_name: string | null;
  on_sale: boolean;
  is_default: boolean;
  /** subscriptions in use or over quota */
  live_subscriptions: number;
  created_at: string;
}

/** DELETE /super/plan → data: removed, or (when anything refers to it) taken off sale instead. */
export interface DeletePlanResult {
  deleted: boolean;
  off_sale: boolean;
}

// ---------------------------------------------------------------------------------------------
// The store (customers)

/** One period of a plan that is on sale. */
export interface PlanPeriodPrice {
  period: PlanPeriod;
  months: number;
  /** list price, fen */
  fee: number;
  /** multiplier, 0.85 = 15 % off */
  fee_discount: number;
  /** fee × fee_discount rounded to the fen: what the customer pays before promo codes */
  price: number;
}

/** What buying this plan now would do for this customer (type 2 plans only). */
export type PurchaseKind = "new" | "extend" | "upgrade" | "refused";

/** A plan on sale: its terms, and its prices per period for this customer. */
export interface StorePlan extends PlanTerms {
  id: number;
  level_name: string | null;
  level: number;
  /** the periods on sale, monthly → annual */
  periods: PlanPeriodPrice[];
  /** for plans: new / extend (same plan) / upgrade (higher level) / refused (lower or same level) */
  purchase: PurchaseKind;
  /** why refused, or a hint ("升级后原套餐剩余价值将抵扣") */
  purchase_note: string;
}

/** The plan subscription a customer has now. */
export interface CurrentPlan {
  subscription_id: number;
  plan_id: number;
  plan_name: string;
  level: number;
  /** the free default plan (never expires, replaced by any paid plan) */
  free: boolean;
  end_at: string | null;
  status: number;
}

export interface StoreLevelGroup {
  level_id: number;
  name: string;
  level: number;
  plans: StorePlan[];
}

/** GET /user/plan → data */
export interface StoreCatalog {
  current: CurrentPlan | null;
  /** levels ascending, each with its plans on sale (by sort, then id) */
  levels: StoreLevelGroup[];
}

/** GET /user/plan */
export const StorePlanQuery = z.object({ type: optionalInt(2, 3) });

export const PlanIdParams = z.object({ planID: z.coerce.number().int().min(1, "套餐无效") });
