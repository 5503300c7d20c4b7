import { type IllegalFlagRow, IllegalStatus, type Paged, TunnelStatus } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  openDomains(t);
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe("an illegal-tunnel record whose tunnel was deleted (issue 35 §13)", () => {
  it("lists the tunnel as deleted, refuses a ban with a clear message and changes nothing, and can be closed", async () => {
    const rule = `gone${Date.now() % 100000}`;
    await t.api("POST", "/super/tun/illegal/rule", { token: admin, body: { kind: "keyword", value: rule } });
    const u = await t.register();
    await setPlan(t, u.uid);
    const node = await createTestNode(t, {}, admin);
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name: `x-${rule}` });
    expect((await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id } })).body.code).toBe(
      "SUCCESS",
    );
    const list = async () =>
      (await t.api<Paged<IllegalFlagRow>>("GET", "/super/tun/illegal", { token: admin, query: { tun_id: tun.tun_id } }))
        .body.data.list;
    const [flag] = await list();
    expect(flag).toMatchObject({ status: IllegalStatus.Pending, tun_status: TunnelStatus.Deleted });

    const ban = await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: flag.id, action: "ban" } });
    expect([ban.status, ban.body.code, ban.body.msg]).toEqual([403, 2001, "隧道已删除，无需封禁"]);
    expect((await list())[0].status).toBe(IllegalStatus.Pending);
    const row = await t.db.selectFrom("tunnels").select("status").where("tun_id", "=", tun.tun_id).executeTakeFirst();
    expect(row?.status).toBe(TunnelStatus.Deleted);

    const close = await t.api("PATCH", "/super/tun/illegal", { token: admin, body: { id: flag.id, action: "clear" } });
    expect(close.body.code).toBe("SUCCESS");
    expect((await list())[0].status).toBe(IllegalStatus.Cleared);
  });
});
