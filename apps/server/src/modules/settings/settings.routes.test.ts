import type { AuditRow, Paged, SetupChecklist, SiteSettings } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { makePlan } from "../../../test/store-fixtures";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready), { CHECKIN_MIN_MB: "50", CHECKIN_MAX_MB: "80", AI_DAILY_LIMIT: "12" });

const settings = async () => (await t.api<SiteSettings>("GET", "/super/settings", { token: admin })).body.data;

describe("GET /super/settings (issue 35 §7)", () => {
  it("gathers the site-wide settings where they live: owners' settings and the configuration in force", async () => {
    const s = await settings();
    expect(s.verify.mode).toBe("sandbox");
    expect(s.defaults).toMatchObject({
      checkin_min_mb: 50,
      checkin_max_mb: 80,
      default_plan: { name: expect.any(String) },
    });
    expect(s.assistant).toMatchObject({ configured: false, model: null, daily_limit: 12 });
    expect(s.site).toMatchObject({ payment: "sandbox", sms: "console" });

    // Changed through the owners' endpoints, read back here.
    const on = !s.verify.required_for_tunnels;
    expect(
      (await t.api("PATCH", "/super/verify/setting", { token: admin, body: { required_for_tunnels: on } })).body.code,
    ).toBe("SUCCESS");
    const aff = { rate_bp: 1234, hold_days: 3, min_withdraw: 500 };
    expect((await t.api("PATCH", "/super/aff/setting", { token: admin, body: aff })).body.code).toBe("SUCCESS");
    const after = await settings();
    expect(after.verify.required_for_tunnels).toBe(on);
    expect(after.affiliate).toEqual(aff);
  });

  it("is a Manager's page: support staff and customers are refused", async () => {
    const u = await t.register();
    expect((await t.api("GET", "/super/settings", { token: u.token })).status).toBe(403);
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, role: 2 } });
    const staff = await t.login(u.phone, u.password);
    expect((await t.api("GET", "/super/settings", { token: staff })).status).toBe(403);
    const menu = await t.api<{ path: string }[]>("GET", "/super/roleMenu", { token: admin });
    expect(menu.body.data.map((m) => m.path)).toContain("/setting");
  });

  it("the set-up checklist's environment lines link to the page that shows the values in force", async () => {
    const c = await t.api<SetupChecklist>("GET", "/super/setup", { token: admin });
    const shown = Object.fromEntries(c.body.data.items.map((i) => [i.key, i.shown_at]));
    expect(shown).toMatchObject({ payment: "/setting", sms: "/setting", verify: "/setting" });
  });
});

describe("the audit log records old values of admin updates (issue 35 §6)", () => {
  const changesOf = async (action: string, target: string) => {
    const r = await t.api<Paged<AuditRow>>("GET", "/super/audit", { token: admin, query: { action, size: 50 } });
    return r.body.data.list.find((x) => x.target === target)?.changes ?? [];
  };

  it("user, plan, node and verification-setting updates show field: old → new", async () => {
    const u = await t.register();
    const before = (await t.api<{ nickname: string }>("GET", "/user/userInfo", { token: u.token })).body.data.nickname;
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, nickname: "新昵称", role: 2 } });
    expect(await changesOf("user.update", `user:${u.uid}`)).toEqual(
      expect.arrayContaining([
        { field: "nickname", label: "昵称", from: before, to: "新昵称" },
        { field: "role", label: "角色", from: "普通用户", to: "客服" },
      ]),
    );

    const plan = await makePlan(t, { monthly_fee: 1000 });
    await t.api("PATCH", "/super/plan", { token: admin, body: { id: plan.id, monthly_fee: 1250, on_sale: false } });
    expect(await changesOf("plan.update", `plan:${plan.id}`)).toEqual(
      expect.arrayContaining([
        { field: "monthly_fee", label: "月付价格", from: "¥10.00", to: "¥12.50" },
        { field: "on_sale", label: "在售", from: "是", to: "否" },
      ]),
    );

    const node = await createTestNode(t, { host: "198.51.100.7" }, admin);
    await t.api("PATCH", "/super/node", { token: admin, body: { node_id: node.node_id, host: "198.51.100.8" } });
    expect(await changesOf("node.update", `node:${node.node_id}`)).toContainEqual({
      field: "host",
      label: "地址",
      from: "198.51.100.7",
      to: "198.51.100.8",
    });

    const cur = (await settings()).verify.required_for_tunnels;
    await t.api("PATCH", "/super/verify/setting", { token: admin, body: { required_for_tunnels: !cur } });
    expect(await changesOf("verify.setting", "setting:verify_required_for_tunnels")).toContainEqual({
      field: "required_for_tunnels",
      label: "创建隧道需要实名认证",
      from: cur ? "是" : "否",
      to: cur ? "否" : "是",
    });
  });
});
