import type { Generated, Selectable } from "kysely";

export interface DiscountCodeTable {
  id: Generated<number>;
  /** upper-case */
  code: string;
  /** multiplier, 0.85 = 15 % off */
  discount: number;
  /** ISO instant after which the code is refused */
  expire_date: string;
  /** 0 = unlimited */
  use_limit: number;
  /** reserved by awaiting and paid orders; closing an order gives its use back */
  used_count: Generated<number>;
  /** uses per customer, 0 = unlimited */
  user_limit: number;
  /** JSON array of plan ids; [] = every plan */
  plan_ids: string;
  created_at: string;
}
export type DiscountCodeDbRow = Selectable<DiscountCodeTable>;

export interface GiftCardTable {
  card_id: Generated<number>;
  card_number: string;
  /** cards generated together; one_user_limit counts within a batch */
  batch_no: string;
  /** Kind: 1 balance, 2 plan */
  type: number;
  card_value: number;
  plan_id: number | null;
  /** months of the plan */
  cycle_number: number;
  expire_date: string;
  one_user_limit: number;
  used_uid: number | null;
  /** when it was redeemed */
  sub_time: string | null;
  created_at: string;
}
export type GiftCardDbRow = Selectable<GiftCardTable>;

export interface RechargePromotionTable {
  id: Generated<number>;
  name: string;
  min_amount: number;
  bonus: number;
  start_at: string;
  end_at: string;
  created_at: string;
}
export type RechargePromotionDbRow = Selectable<RechargePromotionTable>;

export interface MarketingTables {
  discount_codes: DiscountCodeTable;
  gift_cards: GiftCardTable;
  recharge_promotions: RechargePromotionTable;
}
