import {
  type AreaListQuery,
  type AreaRow,
  type CreateAreaBody,
  type CreateLevelBody,
  type CreateNetTypeBody,
  type DeleteLevelBody,
  type DeleteNetTypeBody,
  type LevelListQuery,
  type NetTypeListQuery,
  type NetTypeRow,
  NetworkType,
  type Paged,
  type PlanLevelRow,
  type UpdateAreaBody,
  type UpdateLevelBody,
  type UpdateNetTypeBody,
} from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import { containsText } from "../../db/dialect";
import type { Operator } from "../../shared/actor";
import { localDuplicated, notFound, refused } from "../../shared/errors";
import { countRows, countSelected, pageOf } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { audit } from "../audit/audit";

const BUILTIN_NET_TYPES: number[] = Object.values(NetworkType);

type NodeRef = "area_id" | "net_type_id" | "level_id";

/** The list column `node_count`: how many nodes point at the row (`ref` is its id column). */
const nodeCount = (column: NodeRef, ref: string) =>
  sql<number>`(select count(*) from nodes where ${sql.ref(`nodes.${column}`)} = ${sql.ref(ref)})`.as("node_count");

// ---------------------------------------------------------------- areas

/** Areas, filtered by name, with how many nodes use each. */
export async function listAreas(ctx: AppContext, q: AreaListQuery): Promise<Paged<AreaRow>> {
  let sel = ctx.db.selectFrom("areas");
  if (q.area_name) sel = sel.where(containsText(ctx.db, "area_name", q.area_name));
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await sel
        .select([
          "areas.area_id",
          "areas.area_name",
          "areas.sort",
          "areas.icp_required",
          "areas.created_at",
          nodeCount("area_id", "areas.area_id"),
        ])
        .orderBy("sort", "asc")
        .orderBy("area_id", "asc")
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => ({ ...r, node_count: Number(r.node_count ?? 0) }));
    },
    () => countRows(sel),
  );
}

async function assertAreaNameFree(ctx: AppContext, name: string, exceptId?: number): Promise<void> {
  let q = ctx.db.selectFrom("areas").select("area_id").where("area_name", "=", name);
  if (exceptId) q = q.where("area_id", "<>", exceptId);
  if (await q.executeTakeFirst()) throw localDuplicated("地区名称已存在", "area_name");
}

/** Creates an area; a taken name is 40008. */
export async function createArea(ctx: AppContext, op: Operator, body: CreateAreaBody): Promise<AreaRow> {
  await assertAreaNameFree(ctx, body.area_name);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("areas")
      .values({
        area_name: body.area_name,
        sort: body.sort ?? 0,
        icp_required: body.icp_required ?? 0,
        created_at: nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "area.create",
      target: `area:${r.area_id}`,
      detail: body,
      ip: op.ip,
    });
    return r;
  });
  return { ...row, node_count: 0 };
}

/** Renames or re-sorts an area. */
export async function updateArea(ctx: AppContext, op: Operator, body: UpdateAreaBody): Promise<AreaRow> {
  const area = await ctx.db.selectFrom("areas").selectAll().where("area_id", "=", body.area_id).executeTakeFirst();
  if (!area) throw notFound("地区");
  if (body.area_name !== undefined) await assertAreaNameFree(ctx, body.area_name, body.area_id);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const set = {
      ...(body.area_name !== undefined && { area_name: body.area_name }),
      ...(body.sort !== undefined && { sort: body.sort }),
      ...(body.icp_required !== undefined && { icp_required: body.icp_required }),
    };
    if (Object.keys(set).length) await trx.updateTable("areas").set(set).where("area_id", "=", body.area_id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "area.update",
      target: `area:${body.area_id}`,
      detail: body,
      ip: op.ip,
    });
    return trx.selectFrom("areas").selectAll().where("area_id", "=", body.area_id).executeTakeFirstOrThrow();
  });
  return { ...row, node_count: await countNodes(ctx, "area_id", body.area_id) };
}

/** Deletes an area no node uses. */
export async function deleteArea(ctx: AppContext, op: Operator, areaId: number): Promise<void> {
  const area = await ctx.db.selectFrom("areas").select("area_id").where("area_id", "=", areaId).executeTakeFirst();
  if (!area) throw notFound("地区");
  const n = await countNodes(ctx, "area_id", areaId);
  if (n > 0) throw refused(`该地区下还有 ${n} 个节点，请先移走或删除这些节点`);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("areas").where("area_id", "=", areaId).execute();
    await audit(trx, { operatorUid: op.uid, action: "area.delete", target: `area:${areaId}`, ip: op.ip });
  });
}

async function countNodes(ctx: AppContext, column: NodeRef, id: number) {
  const r = await ctx.db
    .selectFrom("nodes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(column, "=", id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

// ---------------------------------------------------------------- network types

/** Network types with their node counts. */
export async function listNetTypes(ctx: AppContext, q: NetTypeListQuery): Promise<Paged<NetTypeRow>> {
  let sel = ctx.db.selectFrom("net_types");
  if (q.name) sel = sel.where(containsText(ctx.db, "name", q.name));
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const rows = await sel
        .select(["net_types.id", "net_types.name", "net_types.created_at", nodeCount("net_type_id", "net_types.id")])
        .orderBy("id", "asc")
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => ({
        ...r,
        node_count: Number(r.node_count ?? 0),
        builtin: BUILTIN_NET_TYPES.includes(r.id),
      }));
    },
    () => countRows(sel),
  );
}

async function assertNetTypeNameFree(ctx: AppContext, name: string, exceptId?: number): Promise<void> {
  let q = ctx.db.selectFrom("net_types").select("id").where("name", "=", name);
  if (exceptId) q = q.where("id", "<>", exceptId);
  if (await q.executeTakeFirst()) throw localDuplicated("网络类型名称已存在", "name");
}

/** Adds a network type (nodes of a non-built-in type get the plain-binary install command). */
export async function createNetType(ctx: AppContext, op: Operator, body: CreateNetTypeBody): Promise<NetTypeRow> {
  await assertNetTypeNameFree(ctx, body.name);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("net_types")
      .values({ name: body.name, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "netType.create",
      target: `netType:${r.id}`,
      detail: body,
      ip: op.ip,
    });
    return r;
  });
  return { ...row, builtin: false, node_count: 0 };
}

/** Renames a network type. */
export async function updateNetType(ctx: AppContext, op: Operator, body: UpdateNetTypeBody): Promise<NetTypeRow> {
  const t = await ctx.db.selectFrom("net_types").selectAll().where("id", "=", body.id).executeTakeFirst();
  if (!t) throw notFound("网络类型");
  await assertNetTypeNameFree(ctx, body.name, body.id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("net_types").set({ name: body.name }).where("id", "=", body.id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "netType.update",
      target: `netType:${body.id}`,
      detail: body,
      ip: op.ip,
    });
  });
  return {
    ...t,
    name: body.name,
    builtin: BUILTIN_NET_TYPES.includes(t.id),
    node_count: await countNodes(ctx, "net_type_id", t.id),
  };
}

/** Deletes an unused, non-built-in network type given by id or name. */
export async function deleteNetType(ctx: AppContext, op: Operator, body: DeleteNetTypeBody): Promise<void> {
  let q = ctx.db.selectFrom("net_types").selectAll();
  q = body.id !== undefined ? q.where("id", "=", body.id) : q.where("name", "=", body.name ?? "");
  const t = await q.executeTakeFirst();
  if (!t) throw notFound("网络类型");
  if (BUILTIN_NET_TYPES.includes(t.id)) throw refused("内置网络类型（host、IP-vlan、mac-vlan）不能删除");
  const n = await countNodes(ctx, "net_type_id", t.id);
  if (n > 0) throw refused(`还有 ${n} 个节点使用该网络类型，无法删除`);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("net_types").where("id", "=", t.id).execute();
    await audit(trx, { operatorUid: op.uid, action: "netType.delete", target: `netType:${t.id}`, ip: op.ip });
  });
}

// ---------------------------------------------------------------- store levels

function selectLevels(ctx: AppContext) {
  return ctx.db.selectFrom("plan_levels").select((eb) => [
    "plan_levels.id",
    "plan_levels.name",
    "plan_levels.level",
    "plan_levels.created_at",
    eb
      .selectFrom("plans")
      .select((e) => e.fn.countAll<number>().as("n"))
      .whereRef("plans.level_id", "=", "plan_levels.id")
      .as("plan_count"),
    nodeCount("level_id", "plan_levels.id"),
  ]);
}

const presentLevel = (r: {
  id: number;
  name: string;
  level: number;
  created_at: string;
  plan_count: number | null;
  node_count: number | null;
}): PlanLevelRow => ({ ...r, plan_count: Number(r.plan_count ?? 0), node_count: Number(r.node_count ?? 0) });

/** Store levels by rank, with how many plans and nodes use each. */
export async function listLevels(ctx: AppContext, q: LevelListQuery): Promise<Paged<PlanLevelRow>> {
  let sel = selectLevels(ctx);
  if (q.name) sel = sel.where(containsText(ctx.db, "plan_levels.name", q.name));
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (await sel.orderBy("level", "asc").limit(limit).offset(offset).execute()).map(presentLevel),
    () => countSelected(sel),
  );
}

async function assertLevelFree(ctx: AppContext, body: { name?: string; level?: number }, exceptId?: number) {
  for (const field of ["name", "level"] as const) {
    const value = body[field];
    if (value === undefined) continue;
    let q = ctx.db.selectFrom("plan_levels").select("id").where(field, "=", value);
    if (exceptId) q = q.where("id", "<>", exceptId);
    if (await q.executeTakeFirst())
      throw localDuplicated(field === "name" ? "等级名称已存在" : "该等级数值已存在", field);
  }
}

async function levelRow(ctx: AppContext, id: number): Promise<PlanLevelRow> {
  return presentLevel(await selectLevels(ctx).where("plan_levels.id", "=", id).executeTakeFirstOrThrow());
}

/** Creates a store level; name and rank are each unique (40008). */
export async function createLevel(ctx: AppContext, op: Operator, body: CreateLevelBody): Promise<PlanLevelRow> {
  await assertLevelFree(ctx, body);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("plan_levels")
      .values({ name: body.name, level: body.level, created_at: nowIso() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, { operatorUid: op.uid, action: "level.create", target: `level:${r.id}`, detail: body, ip: op.ip });
    return r;
  });
  return { ...row, plan_count: 0, node_count: 0 };
}

/**
 * Renames or re-ranks a level. A new rank changes who may use which node, so the frp decision
 * cache is told (node.changed for every node of that level; the cache reloads levels with it).
 */
export async function updateLevel(ctx: AppContext, op: Operator, body: UpdateLevelBody): Promise<PlanLevelRow> {
  const lv = await ctx.db.selectFrom("plan_levels").selectAll().where("id", "=", body.id).executeTakeFirst();
  if (!lv) throw notFound("等级");
  await assertLevelFree(ctx, body, body.id);
  await transact(ctx, async (trx) => {
    const set = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.level !== undefined && { level: body.level }),
    };
    if (Object.keys(set).length) await trx.updateTable("plan_levels").set(set).where("id", "=", body.id).execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "level.update",
      target: `level:${body.id}`,
      detail: body,
      ip: op.ip,
    });
    if (body.level !== undefined && body.level !== lv.level) await announceLevelChange(trx, body.id);
  });
  return levelRow(ctx, body.id);
}

async function announceLevelChange(trx: Tx, levelId: number): Promise<void> {
  const nodes = await trx.selectFrom("nodes").select("node_id").where("level_id", "=", levelId).execute();
  // With no node at that level, one event still makes every cache reload the level ranks.
  if (!nodes.length) trx.changes.emit("node.changed", { node_id: 0 });
  for (const n of nodes) trx.changes.emit("node.changed", { node_id: n.node_id });
}

/** Deletes a level no plan or node uses, given by id, name or rank. */
export async function deleteLevel(ctx: AppContext, op: Operator, body: DeleteLevelBody): Promise<void> {
  let q = ctx.db.selectFrom("plan_levels").selectAll();
  if (body.id !== undefined) q = q.where("id", "=", body.id);
  else if (body.name !== undefined) q = q.where("name", "=", body.name);
  else q = q.where("level", "=", body.level ?? -1);
  const lv = await q.executeTakeFirst();
  if (!lv) throw notFound("等级");
  const plans = await ctx.db
    .selectFrom("plans")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("level_id", "=", lv.id)
    .executeTakeFirstOrThrow();
  if (Number(plans.n) > 0) throw refused(`还有 ${plans.n} 个套餐使用该等级，无法删除`);
  const nodes = await countNodes(ctx, "level_id", lv.id);
  if (nodes > 0) throw refused(`还有 ${nodes} 个节点使用该等级，无法删除`);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("plan_levels").where("id", "=", lv.id).execute();
    await audit(trx, { operatorUid: op.uid, action: "level.delete", target: `level:${lv.id}`, ip: op.ip });
  });
}
