import {
  applyMultiplier,
  type CreateDiscountCodeBody,
  type DiscountCodeQuery,
  type DiscountCodeRow,
  type Paged,
  PayStatus,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, localDuplicated, notFound } from "../../shared/errors";
import { randomCode } from "../../shared/ids";
import { pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import { planPeriods } from "../plans/pricing";
import type { DiscountCodeDbRow } from "./marketing.table";

/** Promo codes: a multiplier off plans, packs and renewals, until a date, within use limits. */

const planIdsOf = (row: DiscountCodeDbRow): number[] => {
  try {
    const v = JSON.parse(row.plan_ids) as unknown;
    return Array.isArray(v) ? v.map(Number) : [];
  } catch {
    return [];
  }
};

/** A promo code as the API shows it. */
export function presentDiscountCode(row: DiscountCodeDbRow, now = new Date()): DiscountCodeRow {
  return {
    id: row.id,
    code: row.code,
    discount: Number(row.discount),
    expire_date: row.expire_date,
    use_limit: row.use_limit,
    used_count: row.used_count,
    user_limit: row.user_limit,
    plan_ids: planIdsOf(row),
    expired: Date.parse(row.expire_date) <= now.getTime(),
    created_at: row.created_at,
  };
}

/** GET /super/discountCode */
export async function listDiscountCodes(ctx: AppContext, q: DiscountCodeQuery): Promise<Paged<DiscountCodeRow>> {
  let sel = ctx.db.selectFrom("discount_codes");
  if (q.code) sel = sel.where("code", "=", q.code.toUpperCase());
  return pageOfQuery(q, sel, (s) => s.selectAll().orderBy("id", "desc"), presentDiscountCode);
}

/** POST /super/discountCode: one code (random when none is given), audited. */
export async function createDiscountCode(
  ctx: AppContext,
  operator: { uid: number; ip: string },
  body: CreateDiscountCodeBody,
): Promise<DiscountCodeRow> {
  if (Date.parse(body.expire_date) <= Date.now()) throw invalid("expire_date", "过期时间必须晚于现在");
  // Multipliers count to 4 decimals (applyMultiplier): below 0.00005 the code makes every price 0 fen.
  if (Math.round(body.discount * 10_000) === 0) {
    throw invalid("discount", "折扣过小，折后价格为 0 分");
  }
  const planIds = [...new Set(body.plan_ids)];
  if (planIds.length) {
    const found = await ctx.db.selectFrom("plans").selectAll().where("id", "in", planIds).execute();
    const missing = planIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw invalid("plan_ids", `套餐 ${missing.join(", ")} 不存在`);
    // A code for named plans must leave every paying price of theirs at 1 fen or more.
    const free = found.find((plan) =>
      planPeriods(plan).some((p) => p.price > 0 && applyMultiplier(p.price, body.discount) === 0),
    );
    if (free) throw invalid("discount", `折扣过小，套餐「${free.name}」的折后价格为 0 分`);
  }
  const code = body.code ?? randomCode(8);
  return ctx.db.transaction().execute(async (trx) => {
    if (await trx.selectFrom("discount_codes").select("id").where("code", "=", code).executeTakeFirst()) {
      throw localDuplicated("优惠码已存在", "code");
    }
    const row = await trx
      .insertInto("discount_codes")
      .values({
        code,
        discount: body.discount,
        expire_date: body.expire_date,
        use_limit: body.use_limit,
        user_limit: body.user_limit,
        plan_ids: JSON.stringify(planIds),
        created_at: nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: operator.uid,
      action: "discountCode.create",
      target: `discountCode:${row.id}`,
      detail: { ...body, code },
      ip: operator.ip,
    });
    return presentDiscountCode(row);
  });
}

/** DELETE /super/discountCode: orders keep the code's text; awaiting ones keep their price. */
export async function deleteDiscountCode(ctx: AppContext, operator: { uid: number; ip: string }, id: number) {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("discount_codes").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("优惠码");
    await trx.deleteFrom("discount_codes").where("id", "=", id).execute();
    await audit(trx, {
      operatorUid: operator.uid,
      action: "discountCode.delete",
      target: `discountCode:${id}`,
      detail: { code: row.code },
      ip: operator.ip,
    });
  });
}

/**
 * Checks that a customer may use a code on a plan now, or throws 400/10000 on `code` saying why
 * (unknown, expired, used up, not for this plan, already used by this customer).
 */
export async function validateDiscountCode(
  db: Kysely<DB>,
  uid: number,
  input: string,
  /** null: the plan is not known yet, its restriction is not checked */
  planId: number | null,
  now: Date,
): Promise<DiscountCodeDbRow> {
  const row = await db
    .selectFrom("discount_codes")
    .selectAll()
    .where("code", "=", input.trim().toUpperCase())
    .executeTakeFirst();
  if (!row) throw invalid("code", "优惠码不存在");
  if (Date.parse(row.expire_date) <= now.getTime()) throw invalid("code", "优惠码已过期");
  if (row.use_limit > 0 && row.used_count >= row.use_limit) throw invalid("code", "优惠码已被用完");
  const planIds = planIdsOf(row);
  if (planId !== null && planIds.length && !planIds.includes(planId)) throw invalid("code", "该优惠码不适用于所选套餐");
  if (row.user_limit > 0) {
    const used = await db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .where("discount_code_id", "=", row.id)
      .where("status", "in", [PayStatus.Awaiting, PayStatus.Paid, PayStatus.Refunded])
      .executeTakeFirstOrThrow();
    if (Number(used.n) >= row.user_limit) throw invalid("code", "你已使用过该优惠码");
  }
  return row;
}

/**
 * Takes one use of a code for a new order. Conditional, so concurrent orders can never take more
 * uses than the limit: the loser gets 400 "used up". Call inside the order's transaction.
 */
export async function reserveDiscountCode(trx: Kysely<DB>, id: number): Promise<void> {
  const r = await trx
    .updateTable("discount_codes")
    .set((eb) => ({ used_count: eb("used_count", "+", 1) }))
    .where("id", "=", id)
    .where((eb) => eb.or([eb("use_limit", "=", 0), eb("used_count", "<", eb.ref("use_limit"))]))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw invalid("code", "优惠码已被用完");
}

/** Gives a use back when an order that reserved it closes unpaid. */
export async function releaseDiscountCode(trx: Kysely<DB>, id: number): Promise<void> {
  await trx
    .updateTable("discount_codes")
    .set((eb) => ({ used_count: eb("used_count", "-", 1) }))
    .where("id", "=", id)
    .where("used_count", ">", 0)
    .execute();
}
