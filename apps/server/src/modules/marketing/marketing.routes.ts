import {
  CheckDiscountCodeBody,
  CreateDiscountCodeBody,
  CreateGiftCardsBody,
  CreateRechargePromotionBody,
  DeleteGiftCardBody,
  DiscountCodeQuery,
  GiftCardExportQuery,
  GiftCardQuery,
  IdQuery,
  PageQuery,
  RedeemGiftCardBody,
  UpdateGiftCardBody,
} from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { checkDiscountCode } from "./check-code";
import { createDiscountCode, deleteDiscountCode, listDiscountCodes } from "./discount-codes";
import {
  createGiftCards,
  deleteGiftCards,
  exportGiftCards,
  listGiftCards,
  redeemGiftCard,
  updateGiftCard,
} from "./gift-cards";
import {
  activeRechargePromotions,
  createRechargePromotion,
  deleteRechargePromotion,
  listRechargePromotions,
} from "./recharge-promotions";

/** A DELETE's target from the body or, as some clients send it, the query string. */
const Loose = z.record(z.string(), z.unknown()).optional();

/** Promo codes, gift cards and recharge promotions: the operators' desks and the customers' side. */
export function marketingRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Promo codes
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/discountCode",
    access: "manager",
    query: DiscountCodeQuery,
    handler: ({ query }) => listDiscountCodes(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/discountCode",
    access: "manager",
    body: CreateDiscountCodeBody,
    handler: ({ body, user, req }) => createDiscountCode(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/discountCode",
    access: "manager",
    body: Loose,
    query: Loose,
    handler: ({ body, query, user, req }) => {
      const { id } = IdQuery.parse({ id: body?.id ?? query?.id });
      return deleteDiscountCode(ctx, { uid: user.uid, ip: req.ip }, id);
    },
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/discountCode/check",
    access: "user",
    body: CheckDiscountCodeBody,
    handler: ({ body, user }) => checkDiscountCode(ctx, user.uid, body),
  });

  // Gift cards
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/giftCard",
    access: "manager",
    query: GiftCardQuery,
    handler: ({ query }) => listGiftCards(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/giftCard/export",
    access: "manager",
    query: GiftCardExportQuery,
    handler: async ({ query, user, req, reply }) => {
      const csv = await exportGiftCards(ctx, { uid: user.uid, ip: req.ip }, query);
      const name = `gift-cards-${query.batch_no ?? new Date().toISOString().slice(0, 10)}.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${name.replace(/[^\w.-]/g, "_")}"`)
        .header("cache-control", "no-store")
        .send(csv);
    },
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/giftCard",
    access: "manager",
    body: CreateGiftCardsBody,
    handler: ({ body, user, req }) => createGiftCards(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "PATCH",
    url: "/super/giftCard",
    access: "manager",
    body: UpdateGiftCardBody,
    handler: ({ body, user, req }) => updateGiftCard(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/giftCard",
    access: "manager",
    body: Loose,
    query: Loose,
    handler: ({ body, query, user, req }) => {
      const src = body && Object.keys(body).length ? body : (query ?? {});
      return deleteGiftCards(ctx, { uid: user.uid, ip: req.ip }, DeleteGiftCardBody.parse(src));
    },
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/user/giftCard/redeem",
    access: "user",
    body: RedeemGiftCardBody,
    handler: ({ body, user }) => redeemGiftCard(ctx, user.uid, body.card_number),
  });

  // Recharge promotions
  defineRoute(app, ctx, {
    method: "GET",
    url: "/super/discountRecharge",
    access: "manager",
    query: PageQuery,
    handler: ({ query }) => listRechargePromotions(ctx, query),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/super/discountRecharge",
    access: "manager",
    body: CreateRechargePromotionBody,
    handler: ({ body, user, req }) => createRechargePromotion(ctx, { uid: user.uid, ip: req.ip }, body),
  });
  defineRoute(app, ctx, {
    method: "DELETE",
    url: "/super/discountRecharge",
    access: "manager",
    body: Loose,
    query: Loose,
    handler: ({ body, query, user, req }) => {
      const { id } = IdQuery.parse({ id: query?.id ?? body?.id });
      return deleteRechargePromotion(ctx, { uid: user.uid, ip: req.ip }, id);
    },
  });
  defineRoute(app, ctx, {
    method: "GET",
    url: "/user/discountRecharge",
    access: "user",
    handler: () => activeRechargePromotions(ctx.db),
  });
}
