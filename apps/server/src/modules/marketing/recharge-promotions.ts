import type { CreateRechargePromotionBody, Paged, PageQuery, RechargePromotionRow } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import { pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import type { RechargePromotionDbRow } from "./marketing.table";

/** Recharge promotions: recharge at least X within a window, get Y on top. */

/** A promotion as the API shows it. */
export function presentRechargePromotion(row: RechargePromotionDbRow, now = new Date()): RechargePromotionRow {
  const t = now.getTime();
  return {
    id: row.id,
    name: row.name,
    min_amount: Number(row.min_amount),
    bonus: Number(row.bonus),
    start_at: row.start_at,
    end_at: row.end_at,
    active: Date.parse(row.start_at) <= t && t < Date.parse(row.end_at),
    created_at: row.created_at,
  };
}

/** GET /super/discountRecharge */
export async function listRechargePromotions(ctx: AppContext, q: PageQuery): Promise<Paged<RechargePromotionRow>> {
  const sel = ctx.db.selectFrom("recharge_promotions");
  return pageOfQuery(q, sel, (s) => s.selectAll().orderBy("id", "desc"), presentRechargePromotion);
}

/** GET /user/discountRecharge: the promotions running now, smallest threshold first. */
export async function activeRechargePromotions(db: Kysely<DB>, now = new Date()): Promise<RechargePromotionRow[]> {
  const t = now.toISOString();
  const rows = await db
    .selectFrom("recharge_promotions")
    .selectAll()
    .where("start_at", "<=", t)
    .where("end_at", ">", t)
    .orderBy("min_amount")
    .orderBy("bonus", "desc")
    .execute();
  return rows.map((r) => presentRechargePromotion(r, now));
}

/** The bonus a recharge of `amount` fen earns now: the best single running promotion it reaches. */
export async function rechargeBonus(db: Kysely<DB>, amount: number, now = new Date()): Promise<number> {
  const best = (await activeRechargePromotions(db, now))
    .filter((p) => p.min_amount <= amount)
    .reduce((max, p) => Math.max(max, p.bonus), 0);
  return best;
}

/** POST /super/discountRecharge (audited) */
export async function createRechargePromotion(
  ctx: AppContext,
  operator: { uid: number; ip: string },
  body: CreateRechargePromotionBody,
): Promise<RechargePromotionRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("recharge_promotions")
      .values({ ...body, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: operator.uid,
      action: "discountRecharge.create",
      target: `discountRecharge:${row.id}`,
      detail: body,
      ip: operator.ip,
    });
    return presentRechargePromotion(row);
  });
}

/** DELETE /super/discountRecharge?id (audited); awaiting recharge orders keep their bonus. */
export async function deleteRechargePromotion(
  ctx: AppContext,
  operator: { uid: number; ip: string },
  id: number,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom("recharge_promotions").where("id", "=", id).executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw notFound("充值优惠");
    await audit(trx, {
      operatorUid: operator.uid,
      action: "discountRecharge.delete",
      target: `discountRecharge:${id}`,
      ip: operator.ip,
    });
  });
}
