import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { type PlanPeriod, PlanPeriods } from "./enums";
import { fenToYuan, MAX_FEN } from "./money";
import type { BalanceLedgerRow } from "./users";

/**
 * The store: plans and traffic packs, orders, payments, subscriptions and the balance ledger.
 * Money is integer fen, traffic in a plan is GB, traffic in a subscription is bytes.
 */

/** Recharge bounds, in fen: 1 yuan to 50 000 yuan. */
export const RECHARGE_MIN_FEN = 100;
export const RECHARGE_MAX_FEN = 5_000_000;
/** Amounts the recharge page offers as buttons, in fen (any other amount in bounds may be typed). */
export const RechargePresets = [1000, 3000, 5000, 10000, 20000, 50000] as const;
/** An unpaid online order closes after this many minutes. */
export const ORDER_PAY_TIMEOUT_MINUTES = 15;

/** Payment channels an epay-style gateway offers (its `type` parameter). */
export const PayChannels = ["alipay", "wxpay", "qqpay"] as const;
export type PayChannel = (typeof PayChannels)[number];
export const PayChannelLabel: Record<PayChannel, string> = { alipay: "支付宝", wxpay: "微信支付", qqpay: "QQ 钱包" };

const fen = (label: string) =>
  z
    .number({ error: `${label}必须是数字（单位：分）` })
    .int(`${label}必须是整数（单位：分）`)
    .min(0, `${label}不能为负数`)
    .max(MAX_FEN, `${label}过大`);
const feeDiscount = z
  .number({ error: "折扣必须是数字" })
  .gt(0, "折扣必须大于 0")
  .max(1, "折扣不能大于 1（1 表示不打折，0.85 表示八五折）");
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);
const id = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .int(`${label}无效`)
    .min(1, `${label}无效`);

/** A trade id as Burrow issues it. */
export const TradeId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{8,40}$/, "订单号格式不正确");

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
  level_id: id("商店等级"),
  sort: z.number().int("排序必须是整数").min(-100000).max(100000),
  /** Mbps, 0 = unlimited */
  bandwidth: z.number().int("带宽必须是整数").min(0, "带宽不能为负数").max(100000),
  tunnel_limit: z.number().int("隧道数必须是整数").min(0, "隧道数不能为负数").max(100000),
  tunnel_peer_port_limit: z.number().int("端口数必须是整数").min(0, "端口数不能为负数").max(100000),
  /** fen per period; null = this period is not on sale */
  monthly_fee: fen("月付价格").nullable(),
  /** multiplier applied to the fee: 0.85 = 15 % off */
  monthly_fee_discount: feeDiscount,
  quarterly_fee: fen("季付价格").nullable(),
  quarterly_fee_discount: feeDiscount,
  semiannual_fee: fen("半年付价格").nullable(),
  semiannual_fee_discount: feeDiscount,
  annual_fee: fen("年付价格").nullable(),
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
  .object({ id: id("套餐"), ...planFields })
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

/** One plan as operators see it: every SPEC §3 field. */
export interface AdminPlan {
  id: number;
  name: string;
  tag: string;
  simple_desc: string;
  traffic: number;
  type: number;
  level_id: number;
  level_name: string | null;
  sort: number;
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  monthly_fee: number | null;
  monthly_fee_discount: number;
  quarterly_fee: number | null;
  quarterly_fee_discount: number;
  semiannual_fee: number | null;
  semiannual_fee_discount: number;
  annual_fee: number | null;
  annual_fee_discount: number;
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

export interface StorePlan {
  id: number;
  name: string;
  tag: string;
  simple_desc: string;
  /** GB per month */
  traffic: number;
  /** 2 plan, 3 traffic pack */
  type: number;
  level_id: number;
  level_name: string | null;
  level: number;
  sort: number;
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
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
export const TradeIdParams = z.object({ tradeID: TradeId });

// ---------------------------------------------------------------------------------------------
// Orders

const orderFields = {
  /** 1 balance recharge, 2 plan subscription, 3 traffic pack, 4 renewal */
  type: z.literal([1, 2, 3, 4], { error: "订单类型只能是 1、2、3、4" }),
  /** types 2 and 3 */
  plan_id: id("套餐").optional(),
  /** types 2, 3 and 4 */
  period: z.enum(PlanPeriods, { error: "周期只能是 monthly、quarterly、semiannual、annual" }).optional(),
  /** type 1: fen */
  amount: z
    .number({ error: "金额必须是数字（单位：分）" })
    .int("金额必须是整数（单位：分）")
    .min(RECHARGE_MIN_FEN, `充值金额至少 ${fenToYuan(RECHARGE_MIN_FEN)} 元`)
    .max(RECHARGE_MAX_FEN, `充值金额最多 ${fenToYuan(RECHARGE_MAX_FEN)} 元`)
    .optional(),
  /** type 4: the trade id of the order that opened the subscription to renew (/epay/plan/{tradeID}) */
  trade_id: TradeId.optional(),
  /** promo code (types 2–4) */
  code: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.string().trim().max(32, "优惠码最多 32 个字符").optional(),
  ),
};

type OrderShape = {
  type: number;
  plan_id?: number;
  period?: string;
  amount?: number;
  trade_id?: string;
  code?: string;
  pay_method?: number;
};
function orderRules(b: OrderShape, ctx: z.RefinementCtx): void {
  const need = (field: keyof OrderShape, message: string) => {
    if (b[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message });
  };
  if (b.type === 1) {
    need("amount", "请输入充值金额");
    if (b.pay_method === 1) ctx.addIssue({ code: "custom", path: ["pay_method"], message: "充值只能在线支付" });
    if (b.code !== undefined) ctx.addIssue({ code: "custom", path: ["code"], message: "充值不能使用优惠码" });
  } else if (b.type === 4) {
    need("trade_id", "请选择要续费的套餐");
    need("period", "请选择续费周期");
  } else {
    need("plan_id", "请选择套餐");
    need("period", "请选择购买周期");
  }
}

/** POST /user/order */
export const CreateOrderBody = z
  .object({
    ...orderFields,
    /** 1 balance, 2 online */
    pay_method: z.literal([1, 2], { error: "支付方式只能是 1（余额）或 2（在线支付）" }),
    /** online channel at the gateway */
    pay_type: z.enum(PayChannels, { error: "支付渠道只能是 alipay、wxpay、qqpay" }).default("alipay"),
  })
  .superRefine(orderRules);
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

/** POST /user/order/preview: what an order would cost, without creating it. */
export const PreviewOrderBody = z.object(orderFields).superRefine(orderRules);
export type PreviewOrderBody = z.infer<typeof PreviewOrderBody>;

/** What an order does to the customer's subscriptions. */
export type OrderAction = "recharge" | "new" | "extend" | "upgrade" | "pack" | "renew";

/** The price of an order, line by line (fen). amount = price − code_discount − credit used. */
export interface OrderQuote {
  type: number;
  action: OrderAction;
  plan_id: number | null;
  plan_name: string | null;
  period: PlanPeriod | null;
  months: number | null;
  /** list price of the period (recharge: the amount) */
  fee: number;
  /** after the plan's fee discount */
  price: number;
  code: string | null;
  /** money the promo code takes off */
  code_discount: number;
  /** pro-rata value of the unused days of the plan being upgraded from */
  upgrade_credit: number;
  /** the part of upgrade_credit larger than the price: goes to the balance */
  credit_to_balance: number;
  /** recharge bonus from a recharge promotion */
  bonus: number;
  /** what the customer pays */
  amount: number;
  /** the subscription extended or renewed */
  subscription_id: number | null;
  /** the plan subscription this purchase replaces (upgrade, or the free plan) */
  replaces_subscription_id: number | null;
  /** when the (new or extended) subscription will end */
  end_at: string | null;
}

/** POST /user/order → data. pay_url: redirect the browser there; null when already paid (status 1). */
export interface CreateOrderResult {
  trade_id: string;
  status: number;
  amount: number;
  pay_url: string | null;
}

/** An order as its customer sees it. */
export interface OrderView {
  /** numeric order id (admin filter order_id) */
  id: number;
  /** our trade id (admin filter local_trade_id) */
  trade_id: string;
  type: number;
  pay_method: number;
  pay_type: string | null;
  /** -2 refunded, -1 closed, 1 paid, 2 awaiting payment */
  status: number;
  name: string;
  action: OrderAction;
  plan_id: number | null;
  plan_name: string | null;
  period: PlanPeriod | null;
  months: number | null;
  fee: number;
  price: number;
  code: string | null;
  code_discount: number;
  upgrade_credit: number;
  bonus: number;
  amount: number;
  subscription_id: number | null;
  /** what happened, when it is not the obvious (e.g. paid after closing: credited to the balance) */
  note: string;
  /** the gateway's trade number */
  channel_trade_id: string | null;
  /** while awaiting an online payment: where to pay */
  pay_url: string | null;
  created_at: string;
  /** awaiting orders close at this time */
  expires_at: string;
  paid_at: string | null;
  closed_at: string | null;
  refunded_at: string | null;
}

/** GET /user/order/{tradeID} → data (also the renewal page /epay/plan/{tradeID}). */
export interface OrderDetail extends OrderView {
  /** the subscription this order opened, extended or renewed */
  subscription: SubscriptionView | null;
  /** the plan with the periods a renewal may choose (even when off sale) */
  plan: StorePlan | null;
  /** whether POST /user/order {type: 4, trade_id} can renew this order's subscription now */
  renewable: boolean;
}

/** GET /user/order */
export const OrderListQuery = PageQuery.extend({ type: optionalInt(1, 4), status: optionalInt(-2, 2) });
export type OrderListQuery = z.infer<typeof OrderListQuery>;

/** GET /super/epay/order (SPEC §7 filters) */
export const AdminOrderQuery = PageQuery.extend({
  user_id: optionalInt(1),
  order_id: optionalInt(1),
  channel_trade_id: optionalText(64),
  local_trade_id: optionalText(40),
  type: optionalInt(1, 4),
  status: optionalInt(-2, 2),
});
export type AdminOrderQuery = z.infer<typeof AdminOrderQuery>;

export interface AdminOrderRow extends OrderView {
  uid: number;
  phone: string;
}

/** GET /super/epay/order/detail?trade_id → data */
export interface AdminOrderDetail extends AdminOrderRow {
  user: { uid: number; phone: string; nickname: string; balance: number };
  subscription: SubscriptionView | null;
  /** balance ledger rows of this order */
  ledger: BalanceLedgerRow[];
  /** whether POST /super/epay/order/refund is allowed (by default, or only by an override) */
  refundable: boolean;
  /** what a refund would pay by the value model, and why; null for orders that cannot be refunded */
  refund: RefundPreview | null;
}

/** What a refund of an order pays by the value model (docs/payments.md), fen. */
export interface RefundPreview {
  /** the default refund: what is left of the value this order put into its subscription */
  refundable: number;
  /** the most an operator override may pay (value already given out, e.g. as upgrade credit, never counts) */
  max_override: number;
  /** how the amount was reached, for the operator */
  reason: string;
}

export const TradeIdQuery = z.object({ trade_id: TradeId });
/**
 * POST /super/epay/order/refund. Without `amount` the refund pays what the value model says is
 * left (RefundPreview.refundable). A larger amount is an operator override: it needs
 * `override_reason` and stays within RefundPreview.max_override.
 */
export const RefundOrderBody = z.object({
  trade_id: TradeId,
  amount: fen("退款金额").optional(),
  override_reason: z.string().trim().max(200, "原因最多 200 个字符").optional(),
});
export type RefundOrderBody = z.infer<typeof RefundOrderBody>;

/** POST /super/epay/order/refund → data */
export interface RefundResult {
  trade_id: string;
  /** credited to the customer's balance, fen */
  refunded: number;
  /** whether it was more than the value model's amount (an operator override) */
  override: boolean;
  balance: number;
}

/** GET /user/ledger */
export const LedgerQuery = PageQuery;

// ---------------------------------------------------------------------------------------------
// Subscriptions

export interface SubscriptionView {
  id: number;
  plan_id: number;
  plan_name: string;
  /** 2 plan, 3 traffic pack */
  kind: number;
  period: PlanPeriod | null;
  start_at: string;
  /** null: never ends (the free plan) */
  end_at: string | null;
  /** bytes */
  traffic_quota: number;
  traffic_used: number;
  traffic_left: number;
  /** -2 refunded, -1 expired, 1 in use, 2 over quota */
  status: number;
  /** the order that opened it (renewal page key); null for the free plan and gift cards */
  trade_id: string | null;
  free: boolean;
  renewable: boolean;
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  level_name: string | null;
  created_at: string;
}

/** What the customer's plan allows now (the frp plugin uses the same numbers). */
export interface PlanLimitsInfo {
  plan_id: number;
  plan_name: string;
  level: number;
  bandwidth: number;
  tunnel_limit: number;
  tunnel_peer_port_limit: number;
  traffic_quota: number;
  traffic_used: number;
  end_at: string | null;
  usable: boolean;
  reason?: string;
}

/** GET /user/subscription */
export const SubscriptionQuery = PageQuery.extend({ status: optionalInt(-2, 2), kind: optionalInt(2, 3) });
export type SubscriptionQuery = z.infer<typeof SubscriptionQuery>;

/** GET /user/subscription → data: the page, and the customer's limits now. */
export interface SubscriptionList {
  list: SubscriptionView[];
  total: number;
  page: number;
  size: number;
  limits: PlanLimitsInfo | null;
}

/** GET /super/plan/reg (plan registrations) */
export const PlanRegQuery = PageQuery.extend({
  user_id: optionalInt(1),
  local_trade_id: optionalText(40),
  kind: optionalInt(2, 3),
  status: optionalInt(-2, 2),
});
export type PlanRegQuery = z.infer<typeof PlanRegQuery>;

export interface PlanRegRow extends SubscriptionView {
  uid: number;
  phone: string;
}
