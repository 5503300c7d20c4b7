import type { AreaRow, NetTypeRow, Paged, PlanLevelRow } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
let customer: string;
adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  customer = (await t.register()).token;
});

describe("areas (/super/area)", () => {
  it("creates, lists by name, renames and deletes an area", async () => {
    const c = await t.api<AreaRow>("POST", "/super/area", { token: admin, body: { area_name: "华东-上海", sort: 5 } });
    expect(c.body.code).toBe("SUCCESS");
    expect(c.body.data).toMatchObject({ area_name: "华东-上海", sort: 5, node_count: 0 });
    const list = await t.api<Paged<AreaRow>>("GET", "/super/area", {
      token: admin,
      query: { page: 1, size: 10, area_name: "上海" },
    });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.list[0].area_id).toBe(c.body.data.area_id);
    const all = await t.api<Paged<AreaRow>>("GET", "/super/area", { token: admin });
    expect(all.body.data.list.find((a) => a.area_name === "默认地区")?.node_count).toBe(1);

    const u = await t.api<AreaRow>("PATCH", "/super/area", {
      token: admin,
      body: { area_id: c.body.data.area_id, area_name: "华东-杭州" },
    });
    expect(u.body.data.area_name).toBe("华东-杭州");
    const d = await t.api("DELETE", "/super/area", { token: admin, body: { area_id: c.body.data.area_id } });
    expect(d.body.code).toBe("SUCCESS");
    const gone = await t.api("DELETE", "/super/area", { token: admin, body: { area_id: c.body.data.area_id } });
    expect(gone.status).toBe(404);
  });

  it("treats % and _ in the name filter literally", async () => {
    await t.api("POST", "/super/area", { token: admin, body: { area_name: "100%_area" } });
    const hit = await t.api<Paged<AreaRow>>("GET", "/super/area", { token: admin, query: { area_name: "%_" } });
    expect(hit.body.data.list.map((a) => a.area_name)).toEqual(["100%_area"]);
  });

  it("refuses a duplicate name (40008), bad input (10000) and deleting an area in use (2001)", async () => {
    const dup = await t.api("POST", "/super/area", { token: admin, body: { area_name: "默认地区" } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe(40008);
    const bad = await t.api("POST", "/super/area", { token: admin, body: { area_name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("area_name");
    const noId = await t.api("DELETE", "/super/area", { token: admin });
    expect(noId.body.code).toBe(10000);
    expect(noId.body.msg).toContain("area_id");
    const area = await t.db
      .selectFrom("areas")
      .select("area_id")
      .where("area_name", "=", "默认地区")
      .executeTakeFirstOrThrow();
    const used = await t.api("DELETE", "/super/area", { token: admin, body: { area_id: area.area_id } });
    expect(used.status).toBe(403);
    expect(used.body.code).toBe(2001);
    expect(used.body.msg).toContain("节点");
  });

  it("writes an audit row for every change", async () => {
    const c = await t.api<AreaRow>("POST", "/super/area", { token: admin, body: { area_name: "审计地区" } });
    const rows = await t.db
      .selectFrom("audit_logs")
      .selectAll()
      .where("target", "=", `area:${c.body.data.area_id}`)
      .execute();
    expect(rows.map((r) => r.action)).toEqual(["area.create"]);
  });
});

describe("network types (/super/node/netType)", () => {
  it("lists the seeded host 1, IP-vlan 2, mac-vlan 3 as built-in", async () => {
    const r = await t.api<Paged<NetTypeRow>>("GET", "/super/node/netType", { token: admin });
    expect(r.body.data.list.slice(0, 3).map((n) => [n.id, n.name, n.builtin])).toEqual([
      [1, "host", true],
      [2, "IP-vlan", true],
      [3, "mac-vlan", true],
    ]);
  });

  it("adds, renames and deletes a type by id or by name", async () => {
    const a = await t.api<NetTypeRow>("POST", "/super/node/netType", { token: admin, body: { name: "bare-metal" } });
    expect(a.body.data).toMatchObject({ name: "bare-metal", builtin: false });
    expect(a.body.data.id).toBeGreaterThan(3);
    const r = await t.api<NetTypeRow>("PATCH", "/super/node/netType", {
      token: admin,
      body: { id: a.body.data.id, name: "metal" },
    });
    expect(r.body.data.name).toBe("metal");
    expect((await t.api("DELETE", "/super/node/netType", { token: admin, body: { name: "metal" } })).body.code).toBe(
      "SUCCESS",
    );
    const b = await t.api<NetTypeRow>("POST", "/super/node/netType", { token: admin, body: { name: "vps" } });
    expect(
      (await t.api("DELETE", "/super/node/netType", { token: admin, body: { id: b.body.data.id } })).body.code,
    ).toBe("SUCCESS");
  });

  it("refuses duplicates, built-in deletion, deleting a used type and an empty delete", async () => {
    expect((await t.api("POST", "/super/node/netType", { token: admin, body: { name: "host" } })).body.code).toBe(
      40008,
    );
    const builtin = await t.api("DELETE", "/super/node/netType", { token: admin, body: { id: 1 } });
    expect(builtin.body.code).toBe(2001);
    const x = await t.api<NetTypeRow>("POST", "/super/node/netType", { token: admin, body: { name: "used-type" } });
    await createTestNode(t, { net_type_id: x.body.data.id });
    const used = await t.api("DELETE", "/super/node/netType", { token: admin, body: { id: x.body.data.id } });
    expect(used.body.code).toBe(2001);
    const none = await t.api("DELETE", "/super/node/netType", { token: admin, body: {} });
    expect(none.body.code).toBe(10000);
    expect(none.body.msg).toContain("id");
  });
});

describe("store levels (/super/plan/level)", () => {
  it("lists levels by rank with plan and node counts", async () => {
    const r = await t.api<Paged<PlanLevelRow>>("GET", "/super/plan/level", { token: admin });
    expect(r.body.data.list.slice(0, 3).map((l) => [l.name, l.level])).toEqual([
      ["免费版", 1],
      ["标准版", 2],
      ["专业版", 3],
    ]);
    expect(r.body.data.list[0].plan_count).toBeGreaterThanOrEqual(1);
    expect(r.body.data.list[0].node_count).toBeGreaterThanOrEqual(1);
  });

  it("creates, edits and deletes a level by id, name or level", async () => {
    const a = await t.api<PlanLevelRow>("POST", "/super/plan/level", {
      token: admin,
      body: { name: "旗舰版", level: 9 },
    });
    expect(a.body.data).toMatchObject({ name: "旗舰版", level: 9, plan_count: 0, node_count: 0 });
    const u = await t.api<PlanLevelRow>("PATCH", "/super/plan/level", {
      token: admin,
      body: { id: a.body.data.id, level: 10 },
    });
    expect(u.body.data).toMatchObject({ name: "旗舰版", level: 10 });
    expect((await t.api("DELETE", "/super/plan/level", { token: admin, body: { level: 10 } })).body.code).toBe(
      "SUCCESS",
    );
    await t.api("POST", "/super/plan/level", { token: admin, body: { name: "企业版", level: 11 } });
    expect((await t.api("DELETE", "/super/plan/level", { token: admin, body: { name: "企业版" } })).body.code).toBe(
      "SUCCESS",
    );
    const c = await t.api<PlanLevelRow>("POST", "/super/plan/level", {
      token: admin,
      body: { name: "临时", level: 12 },
    });
    expect((await t.api("DELETE", "/super/plan/level", { token: admin, body: { id: c.body.data.id } })).body.code).toBe(
      "SUCCESS",
    );
  });

  it("refuses a duplicate name or rank, bad ranks, and deleting a level in use", async () => {
    expect(
      (await t.api("POST", "/super/plan/level", { token: admin, body: { name: "免费版", level: 50 } })).body.code,
    ).toBe(40008);
    const rank = await t.api("POST", "/super/plan/level", { token: admin, body: { name: "新等级", level: 1 } });
    expect(rank.body.code).toBe(40008);
    expect(rank.body.msg).toContain("等级");
    const bad = await t.api("POST", "/super/plan/level", { token: admin, body: { name: "x", level: "high" } });
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("level");
    const used = await t.api("DELETE", "/super/plan/level", { token: admin, body: { name: "免费版" } });
    expect(used.body.code).toBe(2001);
    expect(used.body.msg).toContain("套餐");
  });
});

describe("access", () => {
  it("refuses every catalogue call to customers (30004)", async () => {
    for (const [method, url] of [
      ["GET", "/super/area"],
      ["POST", "/super/area"],
      ["GET", "/super/node/netType"],
      ["DELETE", "/super/node/netType"],
      ["GET", "/super/plan/level"],
      ["PATCH", "/super/plan/level"],
    ] as const) {
      const r = await t.api(method, url, { token: customer, body: method === "GET" ? undefined : {} });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.code).toBe(30004);
    }
  });
});
