import {
  type AdminPlan,
  type AdminPlanQuery,
  applyMultiplier,
  type CreatePlanBody,
  type DeletePlanResult,
  OrderType,
  type Paged,
  type PlanPeriod,
  PlanPeriods,
  type UpdatePlanBody,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit, changeDetail } from "../audit/audit";
import {
  type AdminPlanRow,
  findAdminPlan,
  findPlanByName,
  insertPlan,
  levelExists,
  listPlans,
  liveSubscriberUids,
  planIsReferenced,
} from "./plans.repository";
import type { PlanRow, PlanTable } from "./plans.table";

function presentAdminPlan(p: AdminPlanRow): AdminPlan {
  return {
    id: p.id,
    name: p.name,
    tag: p.tag,
    simple_desc: p.simple_desc,
    traffic: p.traffic,
    type: p.type,
    level_id: p.level_id,
    level_name: p.level_name,
    sort: p.sort,
    bandwidth: p.bandwidth,
    tunnel_limit: p.tunnel_limit,
    tunnel_peer_port_limit: p.tunnel_peer_port_limit,
    monthly_fee: p.monthly_fee === null ? null : Number(p.monthly_fee),
    monthly_fee_discount: Number(p.monthly_fee_discount),
    quarterly_fee: p.quarterly_fee === null ? null : Number(p.quarterly_fee),
    quarterly_fee_discount: Number(p.quarterly_fee_discount),
    semiannual_fee: p.semiannual_fee === null ? null : Number(p.semiannual_fee),
    semiannual_fee_discount: Number(p.semiannual_fee_discount),
    annual_fee: p.annual_fee === null ? null : Number(p.annual_fee),
    annual_fee_discount: Number(p.annual_fee_discount),
    on_sale: p.on_sale === 1,
    is_default: p.is_default === 1,
    live_subscriptions: p.live_subscriptions,
    created_at: p.created_at,
  };
}

/** GET /super/plan */
export async function listAdminPlans(ctx: AppContext, q: AdminPlanQuery): Promise<Paged<AdminPlan>> {
  const page = await listPlans(ctx.db, q);
  return { ...page, list: page.list.map(presentAdminPlan) };
}

async function checkPlanFields(
  db: Kysely<DB>,
  f: { name?: string; level_id?: number; type?: number; is_default?: boolean },
  exceptId = 0,
): Promise<void> {
  if (f.level_id !== undefined && !(await levelExists(db, f.level_id))) throw invalid("level_id", "商店等级不存在");
  if (f.name !== undefined && (await findPlanByName(db, f.name, exceptId))) {
    throw localDuplicated("套餐名称已存在", "name");
  }
  if (f.is_default && f.type !== OrderType.Plan) throw invalid("is_default", "只有套餐（类型 2）可以设为默认套餐");
}

/**
 * A non-zero fee must cost at least 1 fen after its discount (1 fen × 0.33 rounds to 0 and would
 * deliver the plan free, and move an upgrade's whole credit to the balance). A free period is
 * stated as such: fee 0.
 */
function checkPeriodPrices(
  f: Partial<Record<`${PlanPeriod}_fee`, number | null>> & Partial<Record<`${PlanPeriod}_fee_discount`, number>>,
): void {
  for (const period of PlanPeriods) {
    const fee = f[`${period}_fee`];
    const discount = f[`${period}_fee_discount`] ?? 1;
    if (fee && fee > 0 && applyMultiplier(fee, Number(discount)) === 0) {
      throw invalid(`${period}_fee_discount`, "折后价格为 0 分；免费套餐请将价格设为 0");
    }
  }
}

const pricesOf = (p: PlanRow) =>
  Object.fromEntries(
    PlanPeriods.flatMap((period) => [
      [`${period}_fee`, p[`${period}_fee`] === null ? null : Number(p[`${period}_fee`])],
      [`${period}_fee_discount`, Number(p[`${period}_fee_discount`])],
    ]),
  );

/** The flag columns and the rest, as the table stores them. */
function toColumns(b: Partial<CreatePlanBody>): Partial<Omit<PlanTable, "id" | "created_at">> {
  const { on_sale, is_default, ...rest } = b;
  return {
    ...rest,
    ...(on_sale !== undefined && { on_sale: on_sale ? 1 : 0 }),
    ...(is_default !== undefined && { is_default: is_default ? 1 : 0 }),
  };
}

/** POST /super/plan (audited). Making it the default takes the flag from the previous default. */
export async function createPlan(ctx: AppContext, op: Operator, body: CreatePlanBody): Promise<AdminPlan> {
  const id = await transact(ctx, async (trx) => {
    await checkPlanFields(trx, body);
    checkPeriodPrices(body);
    if (body.is_default) await trx.updateTable("plans").set({ is_default: 0 }).execute();
    const id = await insertPlan(trx, {
      ...(toColumns(body) as Omit<PlanTable, "id" | "created_at">),
      created_at: nowIso(),
    });
    await audit(trx, { operatorUid: op.uid, action: "plan.create", target: `plan:${id}`, detail: body, ip: op.ip });
    return id;
  });
  return presentAdminPlan((await findAdminPlan(ctx.db, id))!);
}

/**
 * PATCH /super/plan (audited). The type of a plan that anyone subscribed to cannot change. When
 * what frp enforces changes (level, bandwidth, tunnel limits), every live subscriber's cached
 * decision is dropped (subscription.changed).
 */
export async function updatePlan(ctx: AppContext, op: Operator, body: UpdatePlanBody): Promise<AdminPlan> {
  const { id, ...fields } = body;
  await transact(ctx, async (trx) => {
    const cur = await findAdminPlan(trx, id);
    if (!cur) throw notFound("套餐");
    const type = fields.type ?? cur.type;
    if (fields.type !== undefined && fields.type !== cur.type && (await planIsReferenced(trx, id))) {
      throw refused("该套餐已有订单或订阅，不能修改类型");
    }
    await checkPlanFields(trx, { ...fields, type, is_default: fields.is_default ?? cur.is_default === 1 }, id);
    checkPeriodPrices({ ...pricesOf(cur), ...fields });
    if (fields.is_default) await trx.updateTable("plans").set({ is_default: 0 }).where("id", "!=", id).execute();
    const set = toColumns(fields);
    if (Object.keys(set).length) await trx.updateTable("plans").set(set).where("id", "=", id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "plan.update",
      target: `plan:${id}`,
      detail: changeDetail(presentAdminPlan(cur), fields),
      ip: op.ip,
    });
    const limitsChanged = (["level_id", "bandwidth", "tunnel_limit", "tunnel_peer_port_limit"] as const).some(
      (k) => fields[k] !== undefined && fields[k] !== cur[k],
    );
    // What frp enforces changed for every live subscriber: their cached decisions are dropped.
    if (limitsChanged)
      for (const uid of await liveSubscriberUids(trx, id)) trx.changes.emit("subscription.changed", { uid });
  });
  return presentAdminPlan((await findAdminPlan(ctx.db, id))!);
}

/**
 * DELETE /super/plan (audited). A plan that anything refers to (subscriptions, orders, gift
 * cards) is taken off sale instead, so history and renewals keep working; the default plan stays.
 */
export async function deletePlan(ctx: AppContext, op: Operator, id: number): Promise<DeletePlanResult> {
  return transact(ctx, async (trx) => {
    const cur = await findAdminPlan(trx, id);
    if (!cur) throw notFound("套餐");
    if (cur.is_default === 1) throw refused("这是新用户的默认套餐，请先把其他套餐设为默认再删除");
    const keep = await planIsReferenced(trx, id);
    if (keep) await trx.updateTable("plans").set({ on_sale: 0 }).where("id", "=", id).execute();
    else await trx.deleteFrom("plans").where("id", "=", id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: keep ? "plan.offSale" : "plan.delete",
      target: `plan:${id}`,
      detail: { name: cur.name },
      ip: op.ip,
    });
    return { deleted: !keep, off_sale: keep };
  });
}
