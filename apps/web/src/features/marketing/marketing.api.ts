import type {
  CreateDiscountCodeBody,
  CreateGiftCardsBody,
  CreateRechargePromotionBody,
  DiscountCodeQuery,
  GiftCardExportQuery,
  GiftCardQuery,
  UpdateGiftCardBody,
} from "@burrow/contract";
import { MarketingApi } from "@burrow/contract";
import type { z } from "zod";
import { api } from "@/api/client";
import { pagedListQuery } from "@/lib/table-query";
import type { ListFilters } from "@/lib/url-filters";

export type DiscountCodeFilters = ListFilters<DiscountCodeQuery>;
export type GiftCardFilters = ListFilters<GiftCardQuery>;
export type PageFilters = { page: number; size: number };

export const marketingKeys = {
  all: ["marketing"] as const,
  codes: () => [...marketingKeys.all, "codes"] as const,
  codeList: (filters: DiscountCodeFilters) => [...marketingKeys.codes(), filters] as const,
  gifts: () => [...marketingKeys.all, "gifts"] as const,
  giftList: (filters: GiftCardFilters) => [...marketingKeys.gifts(), filters] as const,
  recharges: () => [...marketingKeys.all, "recharges"] as const,
  rechargeList: (filters: PageFilters) => [...marketingKeys.recharges(), filters] as const,
};

// ---------------------------------------------------------------- promo codes

/** GET /super/discountCode */
export const discountCodeListQuery = (filters: DiscountCodeFilters) =>
  pagedListQuery(marketingKeys.codeList(filters), MarketingApi.getSuperDiscountCode, filters);
/** POST /super/discountCode: without `code` the server makes a random one */
export const createDiscountCode = (body: z.input<typeof CreateDiscountCodeBody>) =>
  api.call(MarketingApi.postSuperDiscountCode, { body });
/** DELETE /super/discountCode */
export const deleteDiscountCode = (id: number) => api.call(MarketingApi.deleteSuperDiscountCode, { body: { id } });

// ---------------------------------------------------------------- gift cards

/** GET /super/giftCard */
export const giftCardListQuery = (filters: GiftCardFilters) =>
  pagedListQuery(marketingKeys.giftList(filters), MarketingApi.getSuperGiftCard, filters);
/** POST /super/giftCard: one batch of `count` cards; answers their numbers */
export const createGiftCards = (body: z.input<typeof CreateGiftCardsBody>) =>
  api.call(MarketingApi.postSuperGiftCard, { body });
/** PATCH /super/giftCard: only cards nobody redeemed */
export const updateGiftCard = (body: z.input<typeof UpdateGiftCardBody>) =>
  api.call(MarketingApi.patchSuperGiftCard, { body });
/** DELETE /super/giftCard: one unused card, or every unused card of a batch */
export const deleteGiftCards = (target: { card_id: number } | { batch_no: string }) =>
  api.call(MarketingApi.deleteSuperGiftCard, { body: target });
/** GET /super/giftCard/export: the matching cards as CSV */
export const exportGiftCards = (query: Partial<GiftCardExportQuery>) =>
  api.download(MarketingApi.getSuperGiftCardExport, { query });

// ---------------------------------------------------------------- recharge promotions

/** GET /super/discountRecharge */
export const rechargePromotionListQuery = (filters: PageFilters) =>
  pagedListQuery(marketingKeys.rechargeList(filters), MarketingApi.getSuperDiscountRecharge, filters);
/** POST /super/discountRecharge */
export const createRechargePromotion = (body: z.input<typeof CreateRechargePromotionBody>) =>
  api.call(MarketingApi.postSuperDiscountRecharge, { body });
/** DELETE /super/discountRecharge?id= (SPEC §7: the id in the query) */
export const deleteRechargePromotion = (id: number) =>
  api.call(MarketingApi.deleteSuperDiscountRecharge, { query: { id } });
