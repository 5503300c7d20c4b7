import {
  type CreateDiscountCodeBody,
  type CreateGiftCardsBody,
  type CreateRechargePromotionBody,
  fenToYuan,
  type GiftCardRow,
  Kind,
  type UpdateGiftCardBody,
  yuanToFen,
} from "@burrow/contract";
import type { Dayjs } from "dayjs";
import type { z } from "zod";
import { DISPLAY_TZ, dayjs } from "@/lib/dayjs";

/**
 * The operators' marketing forms and the bodies they send: money typed in yuan goes out in fen,
 * dates picked go out as Asia/Shanghai days ("2026-12-31"; the server reads an expiry or an end
 * as the end of that day and a start as its beginning).
 */

/** A picked day as the API takes it. */
export const dayOf = (d: Dayjs) => d.format("YYYY-MM-DD");

/** Days before today cannot be picked as an expiry. */
export const beforeToday = (d: Dayjs) => d.isBefore(dayjs().startOf("day"));

// ---------------------------------------------------------------- promo codes

export interface DiscountCodeForm {
  code?: string;
  /** multiplier: 0.85 = 15 % off */
  discount: number | null;
  expire_date: Dayjs | null;
  use_limit: number | null;
  user_limit: number | null;
  plan_ids?: number[];
}

export const emptyDiscountCodeForm: Partial<DiscountCodeForm> = { use_limit: 0, user_limit: 1, plan_ids: [] };

/**
 * POST /super/discountCode from the form; a blank code lets the server make one.
 * @param v validated form values
 */
export function discountCodeBody(v: DiscountCodeForm): z.input<typeof CreateDiscountCodeBody> {
  const code = v.code?.trim();
  return {
    ...(code ? { code } : {}),
    discount: v.discount ?? 1,
    expire_date: v.expire_date ? dayOf(v.expire_date) : "",
    use_limit: v.use_limit ?? 0,
    user_limit: v.user_limit ?? 0,
    plan_ids: v.plan_ids ?? [],
  };
}

// ---------------------------------------------------------------- gift cards

export interface GiftCardForm {
  count: number | null;
  /** Kind: 1 balance, 2 plan */
  type: 1 | 2;
  /** yuan */
  card_value: number | null;
  plan_id: number | null;
  cycle_number: number | null;
  expire_date: Dayjs | null;
  one_user_limit: number | null;
}

export const emptyGiftCardForm: Partial<GiftCardForm> = { count: 10, type: Kind.Balance, one_user_limit: 1 };

/**
 * POST /super/giftCard from the form: only the fields of the chosen kind.
 * @param v validated form values
 */
export function giftCardsBody(v: GiftCardForm): z.input<typeof CreateGiftCardsBody> {
  const common = {
    count: v.count ?? 1,
    type: v.type,
    expire_date: v.expire_date ? dayOf(v.expire_date) : "",
    one_user_limit: v.one_user_limit ?? 0,
  };
  return v.type === Kind.Balance
    ? { ...common, card_value: yuanToFen(v.card_value ?? 0) }
    : { ...common, plan_id: v.plan_id ?? undefined, cycle_number: v.cycle_number ?? undefined };
}

/** The edit form of one unused card. */
export type GiftCardEditForm = Omit<GiftCardForm, "count" | "type">;

/**
 * The edit form of a card.
 * @param card the card as listed
 */
export function giftCardToForm(card: GiftCardRow): GiftCardEditForm {
  return {
    card_value: card.type === Kind.Balance ? Number(fenToYuan(card.card_value)) : null,
    plan_id: card.plan_id,
    cycle_number: card.type === Kind.Plan ? card.cycle_number : null,
    expire_date: dayjs.utc(card.expire_date).tz(DISPLAY_TZ),
    one_user_limit: card.one_user_limit,
  };
}

/**
 * PATCH /super/giftCard from the edit form: only the fields of the card's kind.
 * @param card the card being edited
 * @param v validated form values
 */
export function giftCardPatch(card: GiftCardRow, v: GiftCardEditForm): z.input<typeof UpdateGiftCardBody> {
  return {
    card_id: card.card_id,
    ...(card.type === Kind.Balance
      ? { card_value: yuanToFen(v.card_value ?? 0) }
      : { plan_id: v.plan_id ?? undefined, cycle_number: v.cycle_number ?? undefined }),
    ...(v.expire_date ? { expire_date: dayOf(v.expire_date) } : {}),
    one_user_limit: v.one_user_limit ?? 0,
  };
}

/**
 * A card's state for the list.
 * @param card the card
 * @param now the current time
 */
export function giftCardState(
  card: Pick<GiftCardRow, "used_uid" | "expire_date">,
  now = new Date(),
): "used" | "expired" | "unused" {
  if (card.used_uid !== null) return "used";
  return Date.parse(card.expire_date) <= now.getTime() ? "expired" : "unused";
}

// ---------------------------------------------------------------- recharge promotions

export interface RechargePromotionForm {
  name?: string;
  /** yuan */
  min_amount: number | null;
  /** yuan */
  bonus: number | null;
  range: [Dayjs, Dayjs] | null;
}

/**
 * POST /super/discountRecharge from the form.
 * @param v validated form values
 */
export function rechargePromotionBody(v: RechargePromotionForm): z.input<typeof CreateRechargePromotionBody> {
  return {
    name: v.name?.trim() ?? "",
    min_amount: yuanToFen(v.min_amount ?? 0),
    bonus: yuanToFen(v.bonus ?? 0),
    start_at: v.range ? dayOf(v.range[0]) : "",
    end_at: v.range ? dayOf(v.range[1]) : "",
  };
}
