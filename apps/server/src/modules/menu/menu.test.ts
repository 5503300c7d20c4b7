import type { BalanceLedgerRow, CreateOrderResult, MenuItem, OrderView, Paged } from "@burrow/contract";
import { MenuIconKeys, PayStatus } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { registeredRoutes } from "../../http/route";

let t: TestApp;
let customer: { uid: number; token: string };
let support: string;
let manager: string;
beforeAll(async () => {
  t = await createTestApp();
  manager = await t.adminToken();
  customer = await t.register();
  const staff = await t.register();
  await t.api("PATCH", "/super/user/info", { token: manager, body: { uid: staff.uid, role: 2 } });
  support = await t.login(staff.phone, staff.password);
});
afterAll(() => t.close());

const leaves = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => (i.children?.length ? leaves(i.children) : [i]));

describe("我的订单 (/epay/order) in the customer menu", () => {
  it("is there for every role, with a SPEC icon, so the page does not answer /403", async () => {
    for (const token of [customer.token, support, manager]) {
      const menu = await t.api<MenuItem[]>("GET", "/user/rolemenu", { token });
      const entry = leaves(menu.body.data).find((i) => i.path === "/epay/order");
      expect(entry).toMatchObject({ name: "我的订单", id: "myorder" });
      expect(MenuIconKeys).toContain(entry?.icon);
    }
    // The page's calls are customer calls: nothing more is needed to use it.
    for (const key of ["GET /user/order", "GET /user/order/:tradeID", "POST /user/order/:tradeID/cancel"]) {
      expect([key, registeredRoutes.get(key)]).toEqual([key, "user"]);
    }
  });

  it("lists an abandoned recharge: awaiting payment with its link, then closed once cancelled (not in the ledger)", async () => {
    const created = await t.api<CreateOrderResult>("POST", "/user/order", {
      token: customer.token,
      body: { type: 1, amount: 1500, pay_method: 2 },
    });
    const tradeId = created.body.data.trade_id;
    const awaiting = await t.api<Paged<OrderView>>("GET", "/user/order", {
      token: customer.token,
      query: { status: PayStatus.Awaiting },
    });
    expect(awaiting.body.data.list.map((o) => [o.trade_id, o.type, o.amount])).toEqual([[tradeId, 1, 1500]]);
    expect(awaiting.body.data.list[0].pay_url).toBe(created.body.data.pay_url);
    expect(awaiting.body.data.list[0].pay_url).toBeTruthy();

    const cancelled = await t.api<OrderView>("POST", `/user/order/${tradeId}/cancel`, { token: customer.token });
    expect(cancelled.body.data).toMatchObject({ status: PayStatus.Closed, pay_url: null });
    expect(cancelled.body.data.closed_at).toBeTruthy();
    const closed = await t.api<Paged<OrderView>>("GET", "/user/order", {
      token: customer.token,
      query: { status: PayStatus.Closed },
    });
    expect(closed.body.data.list.map((o) => o.trade_id)).toEqual([tradeId]);
    expect(
      (await t.api<Paged<OrderView>>("GET", "/user/order", { token: customer.token, query: { status: 2 } })).body.data
        .total,
    ).toBe(0);
    // 余额明细 lists money that moved only: the page is where this order can be seen.
    const ledger = await t.api<Paged<BalanceLedgerRow>>("GET", "/user/ledger", { token: customer.token });
    expect(ledger.body.data.total).toBe(0);
    // Cancelling twice is refused, changing nothing.
    const again = await t.api("POST", `/user/order/${tradeId}/cancel`, { token: customer.token });
    expect(again.body.code).not.toBe("SUCCESS");
    const bad = await t.api("GET", "/user/order", { token: customer.token, query: { status: 5 } });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
    expect(bad.body.msg).toContain("status");
  });
});
