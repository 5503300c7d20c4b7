import type { AuditOperator, AuditRow, Paged } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { ADMIN_PHONE, type TestApp } from "../../../test/harness";

/*
 * Issue 35 §6: the operator's audit log reads as Chinese, not developer output: actions by name,
 * changes as "字段：旧值 → 新值" in yuan and Beijing time, the operator by name and phone, and
 * filters by action and operator (a bad filter: 400/10000 naming it).
 */

let t: TestApp;
let admin: string;
let adminUid: number;

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  adminUid = (await t.api<{ uid: number }>("GET", "/user/userInfo", { token: admin })).body.data.uid;
});

const list = (query: Record<string, unknown>) => t.api<Paged<AuditRow>>("GET", "/super/audit", { token: admin, query });

describe("GET /super/audit", () => {
  it("names the action and the operator, and shows the changes in yuan and Beijing time", async () => {
    const u = await t.register();
    const adjusted = await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: u.uid, balance_change: 1234, balance_reason: "补偿" },
    });
    expect(adjusted.body.code).toBe("SUCCESS");
    const before = (await t.api<{ min_withdraw: number }>("GET", "/super/aff/setting", { token: admin })).body.data;
    const aff = await t.api("PATCH", "/super/aff/setting", {
      token: admin,
      body: { rate_bp: 1000, hold_days: 7, min_withdraw: before.min_withdraw + 500 },
    });
    expect(aff.body.code).toBe("SUCCESS");
    // a time recorded in a detail: written here as a plain audit row's value
    await t.db
      .insertInto("audit_logs")
      .values({
        operator_uid: adminUid,
        action: "giftCard.update",
        target: "giftCard:1",
        detail: JSON.stringify({ expire_date: "2026-12-31T16:00:00.000Z" }),
        ip: "127.0.0.1",
        created_at: new Date().toISOString(),
      })
      .execute();

    const r = await list({ size: 10 });
    expect(r.body.code).toBe("SUCCESS");
    const rows = r.body.data.list;
    const user = rows.find((x) => x.action === "user.update" && x.target === `user:${u.uid}`);
    expect(user).toMatchObject({ action_label: "修改用户", operator_uid: adminUid, operator_phone: ADMIN_PHONE });
    expect(user?.operator_name).not.toBe("");
    expect(user?.target_label).toBe(`用户 #${u.uid}`);
    expect(user?.changes).toEqual(
      expect.arrayContaining([
        { field: "balance_change", label: "余额调整", to: "¥12.34" },
        { field: "balance_reason", label: "调整原因", to: "补偿" },
      ]),
    );
    const setting = rows.find((x) => x.action === "aff.setting");
    expect(setting?.action_label).toBe("修改推广设置");
    expect(setting?.changes).toContainEqual({
      field: "min_withdraw",
      label: "最低提现",
      from: `¥${(before.min_withdraw / 100).toFixed(2)}`,
      to: `¥${((before.min_withdraw + 500) / 100).toFixed(2)}`,
    });
    const card = rows.find((x) => x.action === "giftCard.update");
    expect(card).toMatchObject({
      action_label: "修改礼品卡",
      changes: [{ field: "expire_date", label: "过期时间", to: "2027-01-01 00:00:00" }],
    });
  });

  it("filters by action and by operator, and lists the operators", async () => {
    const other = await t.register();
    await t.db
      .insertInto("audit_logs")
      .values({
        operator_uid: other.uid,
        action: "plan.delete",
        target: "plan:99",
        detail: "{}",
        ip: "127.0.0.1",
        created_at: new Date().toISOString(),
      })
      .execute();
    const byAction = (await list({ action: "plan.delete" })).body.data;
    expect(byAction.total).toBe(1);
    expect(byAction.list[0]).toMatchObject({
      action_label: "删除套餐",
      operator_uid: other.uid,
      operator_phone: other.phone,
    });
    const mine = (await list({ operator_uid: adminUid, size: 100 })).body.data;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.list.every((x) => x.operator_uid === adminUid)).toBe(true);
    expect((await list({ operator_uid: other.uid, action: "user.update" })).body.data.total).toBe(0);

    const ops = await t.api<AuditOperator[]>("GET", "/super/audit/operators", { token: admin });
    expect(ops.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uid: adminUid, phone: ADMIN_PHONE }),
        expect.objectContaining({ uid: other.uid, phone: other.phone }),
      ]),
    );
  });

  it("refuses an unknown action or a bad operator with 400/10000 naming the field", async () => {
    for (const [query, field] of [
      [{ action: "user.nuke" }, "action"],
      [{ operator_uid: "abc" }, "operator_uid"],
      [{ operator_uid: 0 }, "operator_uid"],
    ] as const) {
      const r = await list(query);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
  });

  it("is for managers only", async () => {
    const u = await t.register();
    expect((await t.api("GET", "/super/audit", { token: u.token })).status).toBe(403);
    expect((await t.api("GET", "/super/audit/operators", { token: u.token })).status).toBe(403);
  });
});
