import type { AdminPlan, CreatePlanBody } from "@burrow/contract";
import { type AdminSuite, adminOf, adminSuite } from "./admin-fixtures";
import type { TestApp } from "./harness";

export { adminOf } from "./admin-fixtures";

let planSeq = 0;

/** The seeded store levels by rank (1 免费版, 2 标准版, 3 专业版) → plan_levels.id. */
export async function levelIds(t: TestApp): Promise<Record<number, number>> {
  const rows = await t.db.selectFrom("plan_levels").select(["id", "level"]).execute();
  return Object.fromEntries(rows.map((r) => [r.level, r.id]));
}

/** A test plan's settings besides its name and level: monthly 10.00, quarterly 27.00 × 0.9. */
export const TEST_PLAN_FIELDS = {
  traffic: 100,
  type: 2,
  bandwidth: 10,
  tunnel_limit: 5,
  tunnel_peer_port_limit: 2,
  monthly_fee: 1000,
  quarterly_fee: 2700,
  quarterly_fee_discount: 0.9,
};

/** Creates a plan through the admin API (monthly 10.00, quarterly 27.00 × 0.9 unless overridden). */
export async function makePlan(
  t: TestApp,
  overrides: Partial<Omit<CreatePlanBody, "on_sale" | "is_default">> & { level?: number; on_sale?: boolean } = {},
): Promise<AdminPlan> {
  const admin = await adminOf(t);
  const levels = await levelIds(t);
  const { level = 2, ...rest } = overrides;
  const r = await t.api<AdminPlan>("POST", "/super/plan", {
    token: admin,
    body: {
      name: `plan-${process.pid}-${++planSeq}`,
      level_id: levels[level],
      ...TEST_PLAN_FIELDS,
      ...rest,
    },
  });
  if (r.body.code !== "SUCCESS") throw new Error(`plan create failed: ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** Credits a customer's balance through the admin API (a ledger row like any other change). */
export async function giveBalance(t: TestApp, uid: number, fen: number): Promise<void> {
  const admin = await adminOf(t);
  const r = await t.api("PATCH", "/super/user/info", {
    token: admin,
    body: { uid, balance_change: fen, balance_reason: "test top-up" },
  });
  if (r.body.code !== "SUCCESS") throw new Error(`top-up failed: ${JSON.stringify(r.body)}`);
}

export async function balanceOf(t: TestApp, uid: number): Promise<number> {
  const u = await t.db.selectFrom("users").select("balance").where("uid", "=", uid).executeTakeFirstOrThrow();
  return Number(u.balance);
}

/** The customer's subscriptions, oldest first. */
export const subsOf = (t: TestApp, uid: number) =>
  t.db.selectFrom("subscriptions").selectAll().where("uid", "=", uid).orderBy("id").execute();

/**
 * One app and the operator's token for a store or orders suite: `get()` gives them once the
 * file's beforeAll ran.
 */
export function storeSuite() {
  const s: AdminSuite = { t: undefined as unknown as TestApp, admin: "" };
  adminSuite((ready) => Object.assign(s, ready));
  return { get: () => s };
}
