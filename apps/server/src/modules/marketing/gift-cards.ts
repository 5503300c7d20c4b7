import {
  type CreatedGiftCards,
  type CreateGiftCardsBody,
  fenToYuan,
  type GiftCardExportQuery,
  type GiftCardQuery,
  type GiftCardRow,
  Kind,
  KindLabel,
  OrderType,
  type Paged,
  type RedeemResult,
  type UpdateGiftCardBody,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { invalid, notFound, refused } from "../../shared/errors";
import { randomCode, randomDigits } from "../../shared/ids";
import { lockUser } from "../../shared/locks";
import { pageOfQuery } from "../../shared/paging";
import { nowIso, shanghaiWallClock } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { findPlanWithLevel } from "../plans/plans.repository";
import { presentSubscription } from "../subscriptions/subscriptions.presenter";
import { findSubscription } from "../subscriptions/subscriptions.repository";
import { applyPurchase, decidePurchase } from "../subscriptions/subscriptions.service";
import { changeBalance } from "../users/balance";
import type { GiftCardDbRow } from "./marketing.table";

/** Gift cards: batches of single-use numbers worth balance (type 1) or months of a plan (type 2). */

type Operator = { uid: number; ip: string };
type GiftCardWithPlan = GiftCardDbRow & { plan_name: string | null };

function presentGiftCard(c: GiftCardWithPlan): GiftCardRow {
  return {
    card_id: c.card_id,
    card_number: c.card_number,
    type: c.type,
    card_value: Number(c.card_value),
    plan_id: c.plan_id,
    plan_name: c.plan_name,
    cycle_number: c.cycle_number,
    expire_date: c.expire_date,
    one_user_limit: c.one_user_limit,
    batch_no: c.batch_no,
    used_uid: c.used_uid,
    sub_time: c.sub_time,
    created_at: c.created_at,
  };
}

function filtered(db: Kysely<DB>, q: { type?: number; card_number?: string; batch_no?: string; used?: number }) {
  let sel = db.selectFrom("gift_cards");
  if (q.type !== undefined) sel = sel.where("gift_cards.type", "=", q.type);
  if (q.card_number) sel = sel.where("gift_cards.card_number", "=", q.card_number.replace(/[\s-]/g, "").toUpperCase());
  if (q.batch_no) sel = sel.where("gift_cards.batch_no", "=", q.batch_no);
  if (q.used === 1) sel = sel.where("gift_cards.used_uid", "is not", null);
  if (q.used === 0) sel = sel.where("gift_cards.used_uid", "is", null);
  return sel;
}

const withPlan = (sel: ReturnType<typeof filtered>) =>
  sel.leftJoin("plans", "plans.id", "gift_cards.plan_id").selectAll("gift_cards").select("plans.name as plan_name");

/** GET /super/giftCard */
export async function listGiftCards(ctx: AppContext, q: GiftCardQuery): Promise<Paged<GiftCardRow>> {
  const sel = filtered(ctx.db, q);
  return pageOfQuery(q, sel, (s) => withPlan(s).orderBy("gift_cards.card_id", "desc"), presentGiftCard);
}

async function checkPlan(db: Kysely<DB>, planId: number | undefined): Promise<void> {
  if (planId !== undefined && !(await findPlanWithLevel(db, planId))) throw invalid("plan_id", "套餐不存在");
}

/** POST /super/giftCard: generates `count` cards as one batch (audited) and answers their numbers. */
export async function createGiftCards(
  ctx: AppContext,
  op: Operator,
  body: CreateGiftCardsBody,
): Promise<CreatedGiftCards> {
  if (Date.parse(body.expire_date) <= Date.now()) throw invalid("expire_date", "过期时间必须晚于现在");
  if (body.type === Kind.Plan) await checkPlan(ctx.db, body.plan_id);
  const now = nowIso();
  // The number reads the Beijing wall clock, like every time shown to operators (GC + YYYYMMDDhhmmss).
  const batchNo = `GC${shanghaiWallClock(now).toISOString().replace(/\D/g, "").slice(0, 14)}${randomDigits(4)}`;
  const numbers = new Set<string>();
  while (numbers.size < body.count) numbers.add(randomCode(16));
  const cardNumbers = [...numbers];
  await transact(ctx, async (trx) => {
    for (let i = 0; i < cardNumbers.length; i += 200) {
      await trx
        .insertInto("gift_cards")
        .values(
          cardNumbers.slice(i, i + 200).map((card_number) => ({
            card_number,
            batch_no: batchNo,
            type: body.type,
            card_value: body.type === Kind.Balance ? (body.card_value ?? 0) : 0,
            plan_id: body.type === Kind.Plan ? (body.plan_id ?? null) : null,
            cycle_number: body.type === Kind.Plan ? (body.cycle_number ?? 0) : 0,
            expire_date: body.expire_date,
            one_user_limit: body.one_user_limit,
            used_uid: null,
            sub_time: null,
            created_at: now,
          })),
        )
        .execute();
    }
    await audit(trx, {
      operatorUid: op.uid,
      action: "giftCard.create",
      target: `giftCardBatch:${batchNo}`,
      detail: body,
      ip: op.ip,
    });
  });
  return { batch_no: batchNo, count: cardNumbers.length, card_numbers: cardNumbers };
}

/** PATCH /super/giftCard: only a card nobody has redeemed (audited). */
export async function updateGiftCard(ctx: AppContext, op: Operator, body: UpdateGiftCardBody): Promise<GiftCardRow> {
  const { card_id, ...fields } = body;
  if (fields.expire_date !== undefined && Date.parse(fields.expire_date) <= Date.now()) {
    throw invalid("expire_date", "过期时间必须晚于现在");
  }
  await transact(ctx, async (trx) => {
    const card = await trx.selectFrom("gift_cards").selectAll().where("card_id", "=", card_id).executeTakeFirst();
    if (!card) throw notFound("礼品卡");
    if (card.used_uid !== null) throw refused("已兑换的礼品卡不能修改");
    if (card.type === Kind.Plan) await checkPlan(trx, fields.plan_id);
    const set = {
      ...(fields.expire_date !== undefined && { expire_date: fields.expire_date }),
      ...(fields.one_user_limit !== undefined && { one_user_limit: fields.one_user_limit }),
      ...(card.type === Kind.Balance && fields.card_value !== undefined && { card_value: fields.card_value }),
      ...(card.type === Kind.Plan && fields.plan_id !== undefined && { plan_id: fields.plan_id }),
      ...(card.type === Kind.Plan && fields.cycle_number !== undefined && { cycle_number: fields.cycle_number }),
    };
    if (Object.keys(set).length) await trx.updateTable("gift_cards").set(set).where("card_id", "=", card_id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "giftCard.update",
      target: `giftCard:${card_id}`,
      detail: body,
      ip: op.ip,
    });
  });
  const row = await withPlan(filtered(ctx.db, {})).where("gift_cards.card_id", "=", card_id).executeTakeFirstOrThrow();
  return presentGiftCard(row);
}

/** DELETE /super/giftCard: one unused card, or every unused card of a batch (audited); redeemed cards stay as history. */
export async function deleteGiftCards(
  ctx: AppContext,
  op: Operator,
  target: { card_id?: number; batch_no?: string },
): Promise<{ deleted: number }> {
  return transact(ctx, async (trx) => {
    if (target.card_id !== undefined) {
      const card = await trx
        .selectFrom("gift_cards")
        .select(["card_id", "used_uid"])
        .where("card_id", "=", target.card_id)
        .executeTakeFirst();
      if (!card) throw notFound("礼品卡");
      if (card.used_uid !== null) throw refused("已兑换的礼品卡不能删除");
    }
    let del = trx.deleteFrom("gift_cards").where("used_uid", "is", null);
    if (target.card_id !== undefined) del = del.where("card_id", "=", target.card_id);
    if (target.batch_no !== undefined) del = del.where("batch_no", "=", target.batch_no);
    const r = await del.executeTakeFirst();
    const deleted = Number(r.numDeletedRows);
    if (deleted === 0) throw notFound("未兑换的礼品卡");
    await audit(trx, {
      operatorUid: op.uid,
      action: "giftCard.delete",
      target: `giftCard:${target.card_id ?? target.batch_no}`,
      detail: { ...target, deleted },
      ip: op.ip,
    });
    return { deleted };
  });
}

/** A CSV cell: quoted when needed, and defused against spreadsheet formulas. */
function csvCell(v: string | number | null): string {
  let s = v === null ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** GET /super/giftCard/export: the matching cards as CSV (UTF-8 with BOM so that Excel reads Chinese); audited. */
export async function exportGiftCards(ctx: AppContext, op: Operator, q: GiftCardExportQuery): Promise<string> {
  const rows = await withPlan(filtered(ctx.db, q)).orderBy("gift_cards.card_id").limit(100_000).execute();
  await audit(ctx.db, {
    operatorUid: op.uid,
    action: "giftCard.export",
    target: "giftCard",
    detail: { ...q, rows: rows.length },
    ip: op.ip,
  });
  const header = ["卡号", "类型", "面值（元）", "套餐", "月数", "过期时间", "批次", "状态", "兑换用户", "兑换时间"];
  const lines = rows.map((c) =>
    [
      c.card_number,
      KindLabel[c.type] ?? String(c.type),
      c.type === Kind.Balance ? fenToYuan(Number(c.card_value)) : "",
      c.plan_name ?? "",
      c.type === Kind.Plan ? c.cycle_number : "",
      c.expire_date,
      c.batch_no,
      c.used_uid === null ? "未使用" : "已使用",
      c.used_uid,
      c.sub_time,
    ]
      .map(csvCell)
      .join(","),
  );
  return `\uFEFF${[header.join(","), ...lines].join("\r\n")}\r\n`;
}

/**
 * POST /user/giftCard/redeem. Under the customer's lock: the card is taken by a conditional update
 * (a card redeems once, even twice at the same moment), then a balance card credits its value
 * and a plan card applies its months by the subscription rules (same plan extends, higher
 * upgrades with the old plan's unused value credited to the balance, lower is refused — and then
 * the card stays unused).
 */
export async function redeemGiftCard(ctx: AppContext, uid: number, cardNumber: string): Promise<RedeemResult> {
  const now = new Date();
  const out = await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const card = await trx
      .selectFrom("gift_cards")
      .selectAll()
      .where("card_number", "=", cardNumber)
      .executeTakeFirst();
    if (!card) throw invalid("card_number", "礼品卡不存在");
    if (card.used_uid !== null)
      throw invalid("card_number", card.used_uid === uid ? "你已兑换过该礼品卡" : "该礼品卡已被使用");
    if (Date.parse(card.expire_date) <= now.getTime()) throw invalid("card_number", "礼品卡已过期");
    if (card.one_user_limit > 0) {
      const mine = await trx
        .selectFrom("gift_cards")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("batch_no", "=", card.batch_no)
        .where("used_uid", "=", uid)
        .executeTakeFirstOrThrow();
      if (Number(mine.n) >= card.one_user_limit) throw refused(`此批礼品卡每位用户最多兑换 ${card.one_user_limit} 张`);
    }
    const taken = await trx
      .updateTable("gift_cards")
      .set({ used_uid: uid, sub_time: now.toISOString() })
      .where("card_id", "=", card.card_id)
      .where("used_uid", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw invalid("card_number", "该礼品卡已被使用");
    const reason = `礼品卡兑换 ${card.card_number}`;

    if (card.type === Kind.Balance) {
      const { after } = await changeBalance(trx, { uid, change: Number(card.card_value), reason });
      return {
        result: {
          type: card.type,
          card_value: Number(card.card_value),
          plan_name: null,
          cycle_number: 0,
          balance: after,
          subscription: null,
        },
        changed: false,
      };
    }
    const plan = await findPlanWithLevel(trx, card.plan_id ?? 0);
    if (!plan) throw refused("礼品卡对应的套餐已不存在，请联系客服");
    const intent = {
      kind: plan.type === OrderType.TrafficPack ? ("pack" as const) : ("plan" as const),
      plan,
      months: card.cycle_number,
      period: null,
    };
    const decision = await decidePurchase(trx, uid, intent, now);
    const applied = await applyPurchase(trx, uid, intent, decision, { value: 0, tradeId: null, now });
    if (decision.upgrade_credit > 0) {
      await changeBalance(trx, { uid, change: decision.upgrade_credit, reason: "升级套餐：原套餐剩余价值转入余额" });
      // The replaced plan's value went back to the balance: a refund of its orders for rebates.
      const move = { uid, subscriptionId: decision.replaces_subscription_id as number, fen: decision.upgrade_credit };
      for (const hook of ctx.orderHooks) await hook.valueMoved?.(trx, move, now);
    }
    const u = await trx.selectFrom("users").select("balance").where("uid", "=", uid).executeTakeFirstOrThrow();
    const sub = await findSubscription(trx, applied.subscription_id);
    return {
      result: {
        type: card.type,
        card_value: 0,
        plan_name: plan.name,
        cycle_number: card.cycle_number,
        balance: Number(u.balance),
        subscription: sub ? await presentSubscription(trx, sub, now) : null,
      },
      changed: true,
    };
  });
  return out.result;
}
