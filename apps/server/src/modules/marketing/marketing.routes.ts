import { DeleteGiftCardBody, IdQuery, MarketingApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context";
import { sendDownload } from "../../http/download";
import { defineRoute } from "../../http/route";
import { shanghaiDate } from "../../shared/time";
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
const _Loose = z.record(z.string(), z.unknown()).optional();

/** Promo codes, gift cards and recharge promotions: the operators' desks and the customers' side. */
export function marketingRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Promo codes
  defineRoute(app, ctx, MarketingApi.getSuperDiscountCode, ({ query }) => listDiscountCodes(ctx, query));
  defineRoute(app, ctx, MarketingApi.postSuperDiscountCode, ({ body, operator }) =>
    createDiscountCode(ctx, operator, body),
  );
  defineRoute(app, ctx, MarketingApi.deleteSuperDiscountCode, ({ body, query, operator }) => {
    const { id } = IdQuery.parse({ id: body?.id ?? query?.id });
    return deleteDiscountCode(ctx, operator, id);
  });

  // Gift cards
  defineRoute(app, ctx, MarketingApi.getSuperGiftCard, ({ query }) => listGiftCards(ctx, query));
  defineRoute(app, ctx, MarketingApi.getSuperGiftCardExport, async ({ query, reply, operator }) => {
    const csv = await exportGiftCards(ctx, operator, query);
    const name = `gift-cards-${query.batch_no ?? shanghaiDate()}.csv`;
    return sendDownload(reply, { body: csv, name: name.replace(/[^\w.-]/g, "_"), type: "text/csv; charset=utf-8" });
  });
  defineRoute(app, ctx, MarketingApi.postSuperGiftCard, ({ body, operator }) => createGiftCards(ctx, operator, body));
  defineRoute(app, ctx, MarketingApi.patchSuperGiftCard, ({ body, operator }) => updateGiftCard(ctx, operator, body));
  defineRoute(app, ctx, MarketingApi.deleteSuperGiftCard, ({ body, query, operator }) => {
    const src = body && Object.keys(body).length ? body : (query ?? {});
    return deleteGiftCards(ctx, operator, DeleteGiftCardBody.parse(src));
  });
  defineRoute(app, ctx, MarketingApi.postUserGiftCardRedeem, ({ body, user }) =>
    redeemGiftCard(ctx, user.uid, body.card_number),
  );

  // Recharge promotions
  defineRoute(app, ctx, MarketingApi.getSuperDiscountRecharge, ({ query }) => listRechargePromotions(ctx, query));
  defineRoute(app, ctx, MarketingApi.postSuperDiscountRecharge, ({ body, operator }) =>
    createRechargePromotion(ctx, operator, body),
  );
  defineRoute(app, ctx, MarketingApi.deleteSuperDiscountRecharge, ({ body, query, operator }) => {
    const { id } = IdQuery.parse({ id: query?.id ?? body?.id });
    return deleteRechargePromotion(ctx, operator, id);
  });
  defineRoute(app, ctx, MarketingApi.getUserDiscountRecharge, () => activeRechargePromotions(ctx.db));
}
