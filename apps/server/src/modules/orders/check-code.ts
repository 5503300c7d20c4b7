import { type CheckDiscountCodeBody, type DiscountCodeCheck, OrderType } from "@burrow/contract";
import type { AppContext } from "../../context";
import { presentDiscountCode, validateDiscountCode } from "../marketing/discount-codes";
import { findSubscriptionByTrade } from "../subscriptions/subscriptions.repository";
import { priceOrder } from "./pricing";

/**
 * POST /user/discountCode/check: whether this customer may use the code (400 on `code` saying
 * why not) and, when the order is given (type with plan_id or trade_id, and period), its price.
 */
export async function checkDiscountCode(
  ctx: AppContext,
  uid: number,
  body: CheckDiscountCodeBody,
): Promise<DiscountCodeCheck> {
  const now = new Date();
  const type = body.type ?? (body.trade_id ? OrderType.Renewal : OrderType.Plan);
  let planId = body.plan_id;
  if (type === OrderType.Renewal && body.trade_id) {
    planId = (await findSubscriptionByTrade(ctx.db, uid, body.trade_id))?.plan_id;
  }
  // Without a plan its restriction cannot be judged yet: the rest is checked.
  const row = await validateDiscountCode(ctx.db, uid, body.code, planId ?? null, now);
  const canQuote = body.period !== undefined && (type === OrderType.Renewal ? body.trade_id : planId) !== undefined;
  const quote = canQuote
    ? (
        await priceOrder(
          ctx.db,
          uid,
          { type, plan_id: planId, period: body.period, trade_id: body.trade_id, code: row.code },
          now,
        )
      ).quote
    : null;
  const view = presentDiscountCode(row, now);
  return { code: view.code, discount: view.discount, expire_date: view.expire_date, plan_ids: view.plan_ids, quote };
}
