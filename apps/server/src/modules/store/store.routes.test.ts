import type { StoreCatalog, StorePlan } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/harness";
import { makePlan, storeSuite } from "../../../test/store-fixtures";

const suite = storeSuite();
let t: TestApp;
let admin: string;
beforeAll(() => {
  ({ t, admin } = suite.get());
});

describe("/user/plan (the store)", () => {
  it("groups plans on sale by level with each period's fee, discount and final price", async () => {
    const std = await makePlan(t, {
      level: 2,
      name: "店-标准",
      monthly_fee: 1990,
      quarterly_fee: 5970,
      quarterly_fee_discount: 0.85,
    });
    const off = await makePlan(t, { level: 2, name: "店-下架" });
    await t.api("PATCH", "/super/plan", { token: admin, body: { id: off.id, on_sale: false } });
    const pro = await makePlan(t, { level: 3, name: "店-专业" });
    const u = await t.register();
    const r = await t.api<StoreCatalog>("GET", "/user/plan", { token: u.token, query: { type: 2 } });
    expect(r.body.code).toBe("SUCCESS");
    const levels = r.body.data.levels.map((l) => l.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    const all = r.body.data.levels.flatMap((l) => l.plans);
    expect(all.find((p) => p.id === off.id)).toBeUndefined();
    const s = all.find((p) => p.id === std.id)!;
    expect(s.periods).toEqual([
      { period: "monthly", months: 1, fee: 1990, fee_discount: 1, price: 1990 },
      { period: "quarterly", months: 3, fee: 5970, fee_discount: 0.85, price: 5075 },
    ]);
    expect(s.purchase).toBe("new");
    expect(r.body.data.current).toMatchObject({ free: true, end_at: null });
    expect(all.find((p) => p.id === pro.id)?.level_name).toBe("专业版");
    const one = await t.api<StorePlan>("GET", `/user/plan/${std.id}`, { token: u.token });
    expect(one.body.data.name).toBe("店-标准");
    expect((await t.api("GET", `/user/plan/${off.id}`, { token: u.token })).status).toBe(404);
    expect((await t.api("GET", "/user/plan/abc", { token: u.token })).status).toBe(400);
  });
});
