import type { AdminPlan, DeletePlanResult, Paged } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";
import { levelIds, makePlan, subsOf } from "../../../test/store-fixtures";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

describe("/super/plan", () => {
  it("creates a plan with every SPEC field and lists it with filters", async () => {
    const levels = await levelIds(t);
    const r = await t.api<AdminPlan>("POST", "/super/plan", {
      token: admin,
      body: {
        name: "专业版 Pro",
        tag: "热销",
        simple_desc: "适合小团队",
        traffic: 500,
        type: 2,
        level_id: levels[3],
        sort: 5,
        bandwidth: 50,
        tunnel_limit: 20,
        tunnel_peer_port_limit: 5,
        monthly_fee: 1990,
        monthly_fee_discount: 1,
        quarterly_fee: 5970,
        quarterly_fee_discount: 0.9,
        semiannual_fee: null,
        annual_fee: 23880,
        annual_fee_discount: 0.75,
      },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({
      name: "专业版 Pro",
      tag: "热销",
      traffic: 500,
      level_name: "专业版",
      semiannual_fee: null,
      semiannual_fee_discount: 1,
      annual_fee_discount: 0.75,
      on_sale: true,
      is_default: false,
      live_subscriptions: 0,
    });
    const byName = await t.api<Paged<AdminPlan>>("GET", "/super/plan", { token: admin, query: { name: "pro" } });
    expect(byName.body.data.list.map((p) => p.name)).toEqual(["专业版 Pro"]);
    await makePlan(t, { type: 3, name: "流量包 50G" });
    const packs = await t.api<Paged<AdminPlan>>("GET", "/super/plan", {
      token: admin,
      query: { order_type: 3, page: 1, size: 100 },
    });
    expect(packs.body.data.list.every((p) => p.type === 3)).toBe(true);
    expect(packs.body.data.list.map((p) => p.name)).toContain("流量包 50G");
    const byLevel = await t.api<Paged<AdminPlan>>("GET", "/super/plan", {
      token: admin,
      query: { level_id: levels[3], page: 1, size: 100 },
    });
    expect(byLevel.body.data.list.length).toBeGreaterThan(0);
    expect(byLevel.body.data.list.every((p) => p.level_id === levels[3])).toBe(true);
    const audit = await t.db.selectFrom("audit_logs").selectAll().where("action", "=", "plan.create").execute();
    expect(audit.length).toBeGreaterThanOrEqual(2);
  });

  it("refuses bad fields with 400/10000 naming them, and a duplicate name with 40008", async () => {
    const levels = await levelIds(t);
    const base = {
      name: "x",
      traffic: 1,
      type: 2,
      level_id: levels[2],
      bandwidth: 1,
      tunnel_limit: 1,
      tunnel_peer_port_limit: 1,
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ monthly_fee: -1 }, "monthly_fee"],
      [{ monthly_fee: 10.5 }, "monthly_fee"],
      [{ quarterly_fee_discount: 0 }, "quarterly_fee_discount"],
      [{ annual_fee_discount: 1.2 }, "annual_fee_discount"],
      [{ type: 4 }, "type"],
      [{ traffic: -5 }, "traffic"],
      [{ level_id: 99999 }, "level_id"],
      [{ name: "" }, "name"],
      [{ type: 3, is_default: true }, "is_default"],
    ];
    for (const [patch, field] of cases) {
      const r = await t.api("POST", "/super/plan", { token: admin, body: { ...base, ...patch } });
      expect([field, r.status, r.body.code]).toEqual([field, 400, 10000]);
      expect(r.body.msg).toContain(field);
    }
    const p = await makePlan(t);
    const dup = await t.api("POST", "/super/plan", { token: admin, body: { ...base, name: p.name } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(40008);
  });

  it("patches fields, and a plan's limits change tells its live subscribers' caches", async () => {
    const p = await makePlan(t);
    const u = await t.register();
    await t.db
      .insertInto("subscriptions")
      .values({
        uid: u.uid,
        plan_id: p.id,
        kind: 2,
        period: "monthly",
        start_at: new Date().toISOString(),
        end_at: new Date(Date.now() + 86400_000).toISOString(),
        traffic_quota: 1,
        status: 1,
        trade_id: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    const seen: number[] = [];
    t.ctx.events.on("subscription.changed", ({ uid }) => seen.push(uid));
    const r = await t.api<AdminPlan>("PATCH", "/super/plan", {
      token: admin,
      body: { id: p.id, bandwidth: 99, simple_desc: "新的描述" },
    });
    expect(r.body.data).toMatchObject({ bandwidth: 99, simple_desc: "新的描述", name: p.name });
    expect(seen).toContain(u.uid);
    const typeChange = await t.api("PATCH", "/super/plan", { token: admin, body: { id: p.id, type: 3 } });
    expect(typeChange.body.code).toBe(2001);
    const missing = await t.api("PATCH", "/super/plan", { token: admin, body: { id: 999999, name: "z" } });
    expect(missing.status).toBe(404);
  });

  it("moves the default plan with is_default, and new customers get it", async () => {
    const p = await makePlan(t, { name: "新默认套餐", level: 1, monthly_fee: 0 });
    const r = await t.api<AdminPlan>("PATCH", "/super/plan", { token: admin, body: { id: p.id, is_default: true } });
    expect(r.body.data.is_default).toBe(true);
    const defaults = await t.db.selectFrom("plans").select("id").where("is_default", "=", 1).execute();
    expect(defaults).toEqual([{ id: p.id }]);
    const u = await t.register();
    const subs = await subsOf(t, u.uid);
    expect(subs.map((s) => [s.plan_id, s.end_at, s.status])).toEqual([[p.id, null, 1]]);
    const del = await t.api("DELETE", "/super/plan", { token: admin, body: { id: p.id } });
    expect(del.body.code).toBe(2001);
  });

  it("deletes an unused plan, and takes one with subscriptions off sale instead", async () => {
    const unused = await makePlan(t);
    const a = await t.api<DeletePlanResult>("DELETE", "/super/plan", { token: admin, body: { id: unused.id } });
    expect(a.body.data).toEqual({ deleted: true, off_sale: false });
    expect(await t.db.selectFrom("plans").select("id").where("id", "=", unused.id).executeTakeFirst()).toBeUndefined();
    const used = (await t.db.selectFrom("subscriptions").select("plan_id").executeTakeFirstOrThrow()).plan_id;
    const def = await t.api("PATCH", "/super/plan", {
      token: admin,
      body: { id: (await makePlan(t, { level: 1 })).id, is_default: true },
    });
    expect(def.body.code).toBe("SUCCESS");
    const b = await t.api<DeletePlanResult>("DELETE", "/super/plan", { token: admin, query: { id: used } });
    expect(b.body.data).toEqual({ deleted: false, off_sale: true });
    const row = await t.db.selectFrom("plans").select("on_sale").where("id", "=", used).executeTakeFirstOrThrow();
    expect(row.on_sale).toBe(0);
    const actions = await t.db.selectFrom("audit_logs").select(["action", "target"]).execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: "plan.delete", target: `plan:${unused.id}` },
        { action: "plan.offSale", target: `plan:${used}` },
        { action: "plan.update", target: expect.stringMatching(/^plan:/) },
      ]),
    );
    const none = await t.api("DELETE", "/super/plan", { token: admin, body: {} });
    expect(none.body.code).toBe(10000);
    expect(none.body.msg).toContain("id");
  });
});
