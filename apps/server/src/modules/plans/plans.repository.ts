import { type AdminPlanQuery, SubscriptionStatus } from "@burrow/contract";
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { likeContains, likeEscape } from "../../db/dialect";
import type { DB } from "../../db/schema";
import { countRows, pageOf } from "../../shared/paging";
import type { PlanRow, PlanTable } from "./plans.table";

/** All Kysely code for the plans catalogue. */

export type AdminPlanRow = PlanRow & { level_name: string | null; live_subscriptions: number };

export interface PlanWithLevel extends PlanRow {
  /** plan_levels.level; 0 when the level was removed */
  level: number;
  level_name: string | null;
}

/** Plans joined with their store level. */
const plansWithLevel = (db: Kysely<DB>) =>
  db
    .selectFrom("plans")
    .leftJoin("plan_levels", "plan_levels.id", "plans.level_id")
    .selectAll("plans")
    .select(["plan_levels.level as level", "plan_levels.name as level_name"]);

/** A plan with its store level, or undefined. */
export async function findPlanWithLevel(db: Kysely<DB>, planId: number): Promise<PlanWithLevel | undefined> {
  const row = await plansWithLevel(db).where("plans.id", "=", planId).executeTakeFirst();
  return row ? { ...row, level: row.level ?? 0 } : undefined;
}

/** Plans with their level's name and how many live subscriptions each has. */
const withLevelAndLive = (sel: SelectQueryBuilder<DB, "plans", object>) =>
  sel
    .leftJoin("plan_levels", "plan_levels.id", "plans.level_id")
    .selectAll("plans")
    .select((eb) => [
      "plan_levels.name as level_name",
      eb
        .selectFrom("subscriptions")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("subscriptions.plan_id", "=", "plans.id")
        .where("subscriptions.status", "in", [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota])
        .as("live_subscriptions"),
    ]);

/** One page of plans for operators, with level name and live subscription count. */
export async function listPlans(db: Kysely<DB>, q: AdminPlanQuery) {
  let sel = db.selectFrom("plans");
  if (q.name) {
    const pattern = likeContains(q.name);
    sel = sel.where(sql<boolean>`lower(${sql.ref("plans.name")}) like lower(${pattern}) escape ${likeEscape}`);
  }
  if (q.order_type !== undefined) sel = sel.where("plans.type", "=", q.order_type);
  if (q.level_id !== undefined) sel = sel.where("plans.level_id", "=", q.level_id);
  const page = await pageOf(
    q.page,
    q.size,
    (limit, offset) =>
      withLevelAndLive(sel)
        .orderBy("plans.type")
        .orderBy("plans.sort")
        .orderBy("plans.id")
        .limit(limit)
        .offset(offset)
        .execute(),
    () => countRows(sel),
  );
  return {
    ...page,
    list: page.list.map((r) => ({ ...r, live_subscriptions: Number(r.live_subscriptions ?? 0) })) as AdminPlanRow[],
  };
}

/** One plan with its level name and live subscription count. */
export async function findAdminPlan(db: Kysely<DB>, id: number): Promise<AdminPlanRow | undefined> {
  const row = await withLevelAndLive(db.selectFrom("plans")).where("plans.id", "=", id).executeTakeFirst();
  return row ? ({ ...row, live_subscriptions: Number(row.live_subscriptions ?? 0) } as AdminPlanRow) : undefined;
}

/** Plans on sale with their level, by level, then sort and id. */
export async function listPlansOnSale(db: Kysely<DB>, type?: number): Promise<PlanWithLevel[]> {
  let sel = plansWithLevel(db).where("plans.on_sale", "=", 1);
  if (type !== undefined) sel = sel.where("plans.type", "=", type);
  const rows = await sel.orderBy("plan_levels.level").orderBy("plans.sort").orderBy("plans.id").execute();
  return rows.map((r) => ({ ...r, level: r.level ?? 0 }));
}

/** Another plan with this name (names are unique across plans and packs). */
export const findPlanByName = (db: Kysely<DB>, name: string, exceptId = 0) =>
  db.selectFrom("plans").select("id").where("name", "=", name).where("id", "!=", exceptId).executeTakeFirst();

/** Whether a store level exists. */
export const levelExists = async (db: Kysely<DB>, levelId: number): Promise<boolean> =>
  Boolean(await db.selectFrom("plan_levels").select("id").where("id", "=", levelId).executeTakeFirst());

/** Writes a new plan and answers its id. */
export async function insertPlan(db: Kysely<DB>, row: Omit<PlanTable, "id">): Promise<number> {
  const r = await db.insertInto("plans").values(row).returning("id").executeTakeFirstOrThrow();
  return r.id;
}

/** Whether anything (subscription, order, gift card) refers to a plan, so that it must not be deleted. */
export async function planIsReferenced(db: Kysely<DB>, id: number): Promise<boolean> {
  const [sub, order, card] = await Promise.all([
    db.selectFrom("subscriptions").select("id").where("plan_id", "=", id).limit(1).executeTakeFirst(),
    db.selectFrom("orders").select("id").where("plan_id", "=", id).limit(1).executeTakeFirst(),
    db.selectFrom("gift_cards").select("card_id").where("plan_id", "=", id).limit(1).executeTakeFirst(),
  ]);
  return Boolean(sub || order || card);
}

/** Customers with a live subscription of a plan (to tell the frp plugin cache when its limits change). */
export async function liveSubscriberUids(db: Kysely<DB>, planId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("subscriptions")
    .select("uid")
    .distinct()
    .where("plan_id", "=", planId)
    .where("status", "in", [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota])
    .execute();
  return rows.map((r) => r.uid);
}
