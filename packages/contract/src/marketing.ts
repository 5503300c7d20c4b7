import { z } from "zod";
import { optionalInt, optionalText, PageQuery } from "./common";
import { PlanPeriods } from "./enums";
import { parseInstant } from "./instant";
import { MAX_FEN } from "./money";
import { type OrderQuote, RECHARGE_MAX_FEN, TradeId } from "./orders";
import type { SubscriptionView } from "./subscriptions";

/** Promo codes, gift cards and recharge promotions. Money is integer fen. */

const DAY_MS = 24 * 3600 * 1000;
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000;

/**
 * A moment given as an ISO-8601 date-time with zone ("2026-12-31T16:00:00Z") or a plain
 * Asia/Shanghai date ("2026-12-31"), which means the start of that day (`edge: "start"`) or its
 * end (`edge: "end"`, so an expiry date stays valid through the whole day). Output: ISO UTC.
 */
export const DateTimeInput = (edge: "start" | "end") =>
  z
    .string({ error: "请输入日期" })
    .trim()
    .transform((v, ctx) => {
      // parseInstant refuses a day or time that does not exist (2026-11-31, 25:00), which
      // Date.parse would roll over into the next month or day.
      let t: number | null = null;
      if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
        const midnight = parseInstant(`${v}T00:00:00Z`);
        if (midnight !== null) t = midnight - SHANGHAI_OFFSET_MS + (edge === "end" ? DAY_MS - 1000 : 0);
      } else t = parseInstant(v);
      if (t === null) {
        ctx.addIssue({ code: "custom", message: "日期无效：应为存在的日期，格式 YYYY-MM-DD 或 ISO-8601 时间" });
        return z.NEVER;
      }
      return new Date(t).toISOString();
    });

const fenValue = (label: string, min = 1) =>
  z
    .number({ error: `${label}必须是数字（单位：分）` })
    .int(`${label}必须是整数（单位：分）`)
    .min(min, min > 0 ? `${label}必须大于 0` : `${label}不能为负数`)
    .max(MAX_FEN, `${label}过大`);

// ---------------------------------------------------------------------------------------------
// Promo codes

/** Codes are matched case-insensitively and stored upper-case. */
export const PromoCode = z
  .string({ error: "请输入优惠码" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, "优惠码为 3–32 位字母、数字、下划线或连字符")
  .transform((v) => v.toUpperCase());

/** POST /super/discountCode */
export const CreateDiscountCodeBody = z.object({
  /** omitted: a random 8-character code is generated */
  code: PromoCode.optional(),
  /** multiplier: 0.85 = 15 % off */
  discount: z.number({ error: "折扣必须是数字" }).gt(0, "折扣必须大于 0").lt(1, "折扣必须小于 1（0.85 表示八五折）"),
  expire_date: DateTimeInput("end"),
  /** total uses across all customers; 0 = unlimited */
  use_limit: z.number().int("使用次数必须是整数").min(0).max(1_000_000).default(0),
  /** uses per customer; 0 = unlimited */
  user_limit: z.number().int("每人次数必须是整数").min(0).max(1000).default(1),
  /** plan ids it applies to; empty = every plan, pack and renewal */
  plan_ids: z.array(z.number().int().min(1)).max(200).default([]),
});
export type CreateDiscountCodeBody = z.infer<typeof CreateDiscountCodeBody>;

export const DiscountCodeQuery = PageQuery.extend({ code: optionalText(32) });
export type DiscountCodeQuery = z.infer<typeof DiscountCodeQuery>;

export interface DiscountCodeRow {
  id: number;
  code: string;
  discount: number;
  expire_date: string;
  use_limit: number;
  /** uses by awaiting and paid orders (closed orders give theirs back) */
  used_count: number;
  user_limit: number;
  plan_ids: number[];
  expired: boolean;
  created_at: string;
}

/** POST /user/discountCode/check: the code, and (with an order) the price it gives. */
export const CheckDiscountCodeBody = z.object({
  code: z.string({ error: "请输入优惠码" }).trim().min(1, "请输入优惠码").max(32),
  /** 2, 3 or 4; with plan_id/trade_id and period the answer carries the quote */
  type: z.literal([2, 3, 4], { error: "订单类型只能是 2、3、4" }).optional(),
  plan_id: z.number().int().min(1).optional(),
  period: z.enum(PlanPeriods, { error: "周期只能是 monthly、quarterly、semiannual、annual" }).optional(),
  trade_id: TradeId.optional(),
});
export type CheckDiscountCodeBody = z.infer<typeof CheckDiscountCodeBody>;

export interface DiscountCodeCheck {
  code: string;
  discount: number;
  expire_date: string;
  plan_ids: number[];
  /** the price with this code, when the order was given */
  quote: OrderQuote | null;
}

// ---------------------------------------------------------------------------------------------
// Gift cards

const giftFields = {
  /** Kind: 1 balance card, 2 plan card */
  type: z.literal([1, 2], { error: "礼品卡类型只能是 1（余额）或 2（套餐）" }),
  /** type 1: fen credited */
  card_value: fenValue("面值").optional(),
  /** type 2: the plan (or traffic pack) given */
  plan_id: z.number().int().min(1, "套餐无效").optional(),
  /** type 2: months of the plan */
  cycle_number: z.number().int("月数必须是整数").min(1, "月数至少为 1").max(120, "月数最多 120").optional(),
  expire_date: DateTimeInput("end"),
  /** how many cards of the same batch one customer may redeem; 0 = unlimited */
  one_user_limit: z.number().int().min(0).max(1000).default(1),
};

/** POST /super/giftCard: generates a batch. */
export const CreateGiftCardsBody = z
  .object({
    count: z.number().int("数量必须是整数").min(1, "数量至少为 1").max(1000, "一次最多生成 1000 张"),
    ...giftFields,
  })
  .superRefine((b, ctx) => {
    if (b.type === 1 && b.card_value === undefined)
      ctx.addIssue({ code: "custom", path: ["card_value"], message: "请输入面值" });
    if (b.type === 2 && b.plan_id === undefined)
      ctx.addIssue({ code: "custom", path: ["plan_id"], message: "请选择套餐" });
    if (b.type === 2 && b.cycle_number === undefined)
      ctx.addIssue({ code: "custom", path: ["cycle_number"], message: "请输入月数" });
  });
export type CreateGiftCardsBody = z.infer<typeof CreateGiftCardsBody>;

/** POST /super/giftCard → data */
export interface CreatedGiftCards {
  batch_no: string;
  count: number;
  card_numbers: string[];
}

/** PATCH /super/giftCard: only unused cards. */
export const UpdateGiftCardBody = z.object({
  card_id: z.number().int().min(1, "礼品卡无效"),
  card_value: giftFields.card_value,
  plan_id: giftFields.plan_id,
  cycle_number: giftFields.cycle_number,
  expire_date: giftFields.expire_date.optional(),
  one_user_limit: z.number().int().min(0).max(1000).optional(),
});
export type UpdateGiftCardBody = z.infer<typeof UpdateGiftCardBody>;

/** DELETE /super/giftCard (body or query): one unused card, or every unused card of a batch. */
export const DeleteGiftCardBody = z
  .object({
    card_id: z.coerce.number().int().min(1).optional(),
    batch_no: z.string().trim().max(40).optional(),
  })
  .refine((b) => b.card_id !== undefined || b.batch_no !== undefined, {
    path: ["card_id"],
    message: "请指定礼品卡或批次",
  });

/** GET /super/giftCard */
export const GiftCardQuery = PageQuery.extend({
  type: optionalInt(1, 2),
  card_number: optionalText(40),
  batch_no: optionalText(40),
  /** 1 used, 0 unused */
  used: optionalInt(0, 1),
});
export type GiftCardQuery = z.infer<typeof GiftCardQuery>;

/** GET /super/giftCard/export → text/csv */
export const GiftCardExportQuery = GiftCardQuery.omit({ page: true, size: true });
export type GiftCardExportQuery = z.infer<typeof GiftCardExportQuery>;

export interface GiftCardRow {
  card_id: number;
  card_number: string;
  /** Kind: 1 balance, 2 plan */
  type: number;
  card_value: number;
  plan_id: number | null;
  plan_name: string | null;
  cycle_number: number;
  expire_date: string;
  one_user_limit: number;
  batch_no: string;
  /** who redeemed it */
  used_uid: number | null;
  /** when it was redeemed */
  sub_time: string | null;
  created_at: string;
}

/** POST /user/giftCard/redeem */
export const RedeemGiftCardBody = z.object({
  card_number: z
    .string({ error: "请输入卡号" })
    .trim()
    .min(1, "请输入卡号")
    .max(40, "卡号无效")
    .transform((v) => v.replace(/[\s-]/g, "").toUpperCase()),
});

/** POST /user/giftCard/redeem → data */
export interface RedeemResult {
  type: number;
  /** type 1: fen credited */
  card_value: number;
  plan_name: string | null;
  cycle_number: number;
  /** the balance afterwards */
  balance: number;
  /** type 2: the subscription opened or extended */
  subscription: SubscriptionView | null;
}

// ---------------------------------------------------------------------------------------------
// Recharge promotions

/** POST /super/discountRecharge: recharge at least min_amount between start_at and end_at, get bonus. */
export const CreateRechargePromotionBody = z
  .object({
    name: z.string().trim().max(32, "名称最多 32 个字符").default(""),
    min_amount: fenValue("起充金额").max(RECHARGE_MAX_FEN, "起充金额超过单笔充值上限"),
    bonus: fenValue("赠送金额"),
    start_at: DateTimeInput("start"),
    end_at: DateTimeInput("end"),
  })
  .superRefine((b, ctx) => {
    if (b.end_at <= b.start_at) ctx.addIssue({ code: "custom", path: ["end_at"], message: "结束时间必须晚于开始时间" });
  });
export type CreateRechargePromotionBody = z.infer<typeof CreateRechargePromotionBody>;

export const IdQuery = z.object({ id: z.coerce.number().int().min(1, "id 无效") });

export interface RechargePromotionRow {
  id: number;
  name: string;
  min_amount: number;
  bonus: number;
  start_at: string;
  end_at: string;
  /** running now */
  active: boolean;
  created_at: string;
}
