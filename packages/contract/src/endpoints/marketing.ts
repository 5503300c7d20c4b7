import { z } from "zod";
import { pagedAnswer } from "../answers";
import {
  CreatedGiftCardsAnswer,
  DeletedCountAnswer,
  DiscountCodeRowAnswer,
  GiftCardRowAnswer,
  RechargePromotionRowAnswer,
  RedeemResultAnswer,
} from "../answers/marketing";
import type { Paged } from "../codes";
import { PageQuery } from "../common";
import { endpoint } from "../endpoint";
import {
  CreateDiscountCodeBody,
  type CreatedGiftCards,
  CreateGiftCardsBody,
  CreateRechargePromotionBody,
  DiscountCodeQuery,
  type DiscountCodeRow,
  GiftCardExportQuery,
  GiftCardQuery,
  type GiftCardRow,
  type RechargePromotionRow,
  RedeemGiftCardBody,
  type RedeemResult,
  UpdateGiftCardBody,
} from "../marketing";

/** A DELETE's target, from the body (SPEC) or the query string (what some clients send). */
const Loose = z.record(z.string(), z.unknown()).optional();

/** The marketing endpoints (see endpoint.ts). */
export const MarketingApi = {
  getSuperDiscountCode: endpoint<Paged<DiscountCodeRow>>()({
    method: "GET",
    url: "/super/discountCode",
    access: "manager",
    answer: pagedAnswer(DiscountCodeRowAnswer),
    summary: "promo codes, paged and filtered",
    query: DiscountCodeQuery,
  }),
  postSuperDiscountCode: endpoint<DiscountCodeRow>()({
    method: "POST",
    url: "/super/discountCode",
    access: "manager",
    answer: DiscountCodeRowAnswer,
    summary: "without `code` the server makes a random one",
    body: CreateDiscountCodeBody,
  }),
  deleteSuperDiscountCode: endpoint<null>()({
    method: "DELETE",
    url: "/super/discountCode",
    access: "manager",
    answer: z.null(),
    summary: "deletes a promo code (id in the body or the query)",
    body: Loose,
    query: Loose,
  }),
  getSuperGiftCard: endpoint<Paged<GiftCardRow>>()({
    method: "GET",
    url: "/super/giftCard",
    access: "manager",
    answer: pagedAnswer(GiftCardRowAnswer),
    summary: "gift cards, paged and filtered",
    query: GiftCardQuery,
  }),
  getSuperGiftCardExport: endpoint<null>()({
    method: "GET",
    url: "/super/giftCard/export",
    access: "manager",
    summary: "the matching cards as CSV",
    query: GiftCardExportQuery,
    raw: "file",
  }),
  postSuperGiftCard: endpoint<CreatedGiftCards>()({
    method: "POST",
    url: "/super/giftCard",
    access: "manager",
    answer: CreatedGiftCardsAnswer,
    summary: "one batch of `count` cards; answers their numbers",
    body: CreateGiftCardsBody,
  }),
  patchSuperGiftCard: endpoint<GiftCardRow>()({
    method: "PATCH",
    url: "/super/giftCard",
    access: "manager",
    answer: GiftCardRowAnswer,
    summary: "only cards nobody redeemed",
    body: UpdateGiftCardBody,
  }),
  deleteSuperGiftCard: endpoint<{ deleted: number }>()({
    method: "DELETE",
    url: "/super/giftCard",
    access: "manager",
    answer: DeletedCountAnswer,
    summary: "one unused card, or every unused card of a batch",
    body: Loose,
    query: Loose,
  }),
  postUserGiftCardRedeem: endpoint<RedeemResult>()({
    method: "POST",
    url: "/user/giftCard/redeem",
    access: "user",
    answer: RedeemResultAnswer,
    summary: "400/10000 on `card_number` saying why not",
    body: RedeemGiftCardBody,
  }),
  getSuperDiscountRecharge: endpoint<Paged<RechargePromotionRow>>()({
    method: "GET",
    url: "/super/discountRecharge",
    access: "manager",
    answer: pagedAnswer(RechargePromotionRowAnswer),
    summary: "recharge promotions, paged",
    query: PageQuery,
  }),
  postSuperDiscountRecharge: endpoint<RechargePromotionRow>()({
    method: "POST",
    url: "/super/discountRecharge",
    access: "manager",
    answer: RechargePromotionRowAnswer,
    summary: "creates a recharge promotion",
    body: CreateRechargePromotionBody,
  }),
  deleteSuperDiscountRecharge: endpoint<null>()({
    method: "DELETE",
    url: "/super/discountRecharge",
    access: "manager",
    answer: z.null(),
    summary: "deletes a recharge promotion (id in the query, SPEC §7)",
    body: Loose,
    query: Loose,
  }),
  getUserDiscountRecharge: endpoint<RechargePromotionRow[]>()({
    method: "GET",
    url: "/user/discountRecharge",
    access: "user",
    answer: z.array(RechargePromotionRowAnswer),
    summary: "the recharge promotions running now",
  }),
} as const;
