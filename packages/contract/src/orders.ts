import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { type PlanPeriod, PlanPeriods } from "./enums";
import { fenToYuan } from "./money";
import type { StorePlan } from "./plans";
import { fenAmount, positiveId } from "./store-fields";
import type { SubscriptionView } from "./subscriptions";
import type { BalanceLedgerRow } from "./users";

/** Orders, payments and the balance ledger. Money is integer fen. */

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

export const TradeId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{8,40}$/, "订单号格式不正确");
export const TradeIdParams = z.object({ tradeID: TradeId });

// ---------------------------------------------------------------------------------------------
// Orders

const orderFields = {
  /** 1 balance recharge, 2 plan subscription, 3 traffic pack, 4 renewal */
  type: z.literal([1, 2, 3, 4], { error: "订单类型只能是 1、2、3、4" }),
  /** types 2 and 3 */
  plan_id: positiveId("套餐").optional(),
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

/** The price lines a quote and the order made from it both carry (fen). */
export interface OrderLines {
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
  /** recharge bonus from a recharge promotion */
  bonus: number;
  /** what the customer pays */
  amount: number;
  /** the subscription extended or renewed */
  subscription_id: number | null;
}

/** The price of an order, line by line (fen). amount = price − code_discount − credit used. */
export interface OrderQuote extends OrderLines {
  type: number;
  /** the part of upgrade_credit larger than the price: goes to the balance */
  credit_to_balance: number;
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
export interface OrderView extends OrderLines {
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
  /** bought by an automatic rule (auto-renewal, traffic top-up), not by the customer's hand */
  automatic: boolean;
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
  amount: fenAmount("退款金额").optional(),
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
