// @vitest-environment jsdom
import {
  ErrorCode,
  type OrderDetail,
  OrdersApi,
  OrderType,
  type OrderView,
  PayMethod,
  PayStatus,
} from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatTime } from "@/lib/format";
import { ApiFailure, FakeApi, type FakeCall, renderPage } from "@/testing/page-harness";
import { MyOrdersPage } from "./MyOrdersPage";

const order = (o: Partial<OrderView>): OrderView => ({
  id: 1,
  trade_id: "T20261128A",
  type: OrderType.Plan,
  pay_method: PayMethod.Online,
  pay_type: "alipay",
  status: PayStatus.Paid,
  name: "专业版 · 月付",
  note: "",
  channel_trade_id: null,
  pay_url: null,
  created_at: "2026-11-28T02:00:00.000Z",
  expires_at: "2026-11-28T02:15:00.000Z",
  paid_at: "2026-11-28T02:01:00.000Z",
  closed_at: null,
  refunded_at: null,
  automatic: false,
  action: "new",
  plan_id: 3,
  plan_name: "专业版",
  period: "monthly",
  months: 1,
  fee: 3000,
  price: 3000,
  code: null,
  code_discount: 0,
  upgrade_credit: 0,
  bonus: 0,
  amount: 3000,
  subscription_id: 11,
  ...o,
});
// Awaiting payment until ten minutes from now: payable here.
const awaiting = order({
  id: 2,
  trade_id: "T20261128B",
  type: OrderType.TrafficPack,
  status: PayStatus.Awaiting,
  name: "流量包 100 GB",
  pay_url: "https://pay.example.com/checkout/B",
  expires_at: new Date(Date.now() + 10 * 60_000).toISOString(),
  paid_at: null,
  action: "pack",
  period: null,
  amount: 1250,
  fee: 1250,
  price: 1250,
});
const renewal = order({ id: 3, trade_id: "T20261128C", type: OrderType.Renewal, automatic: true, action: "renew" });
const paged = (list: OrderView[]) => ({ list, total: list.length, page: 1, size: 10 });

/** GET /user/order answering by the status asked for. */
function api(orders: OrderView[] = [awaiting, renewal]) {
  return new FakeApi().on(OrdersApi.getUserOrder, (c: FakeCall) =>
    paged(c.query.status === undefined ? orders : orders.filter((o) => o.status === Number(c.query.status))),
  );
}
const show = (fake: FakeApi) => renderPage(<MyOrdersPage />, fake, { path: "/epay/order" });
const row = async (tradeId: string) => (await screen.findByText(tradeId)).closest("tr") as HTMLElement;
/** The open confirm (antd keeps a closed one in the document). */
const popconfirm = async (title: string) =>
  (await screen.findAllByText(title)).at(-1)?.closest(".ant-popover") as HTMLElement;

describe("MyOrdersPage", () => {
  it("shows each order's name, status, type and yuan amount; an awaiting one can be paid until its deadline", async () => {
    const fake = api().on(
      OrdersApi.getUserOrderTradeID,
      (): OrderDetail => ({
        ...renewal,
        subscription: null,
        plan: null,
        renewable: false,
      }),
    );
    show(fake);
    const open = await row("T20261128B");
    expect(within(open).getByText("流量包 100 GB")).toBeTruthy();
    expect(within(open).getByText("待支付")).toBeTruthy();
    expect(within(open).getByText("流量包")).toBeTruthy();
    expect(within(open).getByText("12.50")).toBeTruthy();
    expect(within(open).getByText(`${formatTime(awaiting.expires_at).slice(11, 16)} 前支付`)).toBeTruthy();
    const pay = within(open).getByRole("link", { name: "支付订单 T20261128B" });
    expect(pay.getAttribute("href")).toBe("https://pay.example.com/checkout/B");
    expect(within(open).getByRole("button", { name: "取消订单 T20261128B" })).toBeTruthy();

    const done = await row("T20261128C");
    expect(within(done).getByText("已支付")).toBeTruthy();
    expect(within(done).getByText("续费")).toBeTruthy();
    expect(within(done).getByText("自动")).toBeTruthy();
    expect(within(done).getByText("30.00")).toBeTruthy();
    expect(within(done).getByText(formatTime(renewal.created_at))).toBeTruthy();
    expect(within(done).queryByText("去支付")).toBeNull();
    expect(within(done).queryByText("取消")).toBeNull();

    fireEvent.click(within(done).getByRole("button", { name: "订单 T20261128C 详情" }));
    const drawer = (await screen.findByText("订单详情")).closest(".ant-drawer") as HTMLElement;
    expect(await within(drawer).findByText("专业版 · 月付")).toBeTruthy();
    expect(fake.callsTo(OrdersApi.getUserOrderTradeID).map((c) => c.path)).toEqual(["/api/user/order/T20261128C"]);
    expect(fake.unanswered).toEqual([]);
  });

  it("offers no 去支付 for an awaiting order whose time has run out", async () => {
    const late = order({ ...awaiting, pay_url: "https://pay.example.com/x", expires_at: "2026-01-01T00:00:00.000Z" });
    show(api([late]));
    const r = await row(late.trade_id);
    expect(within(r).queryByText("去支付")).toBeNull();
    expect(within(r).getByRole("button", { name: `取消订单 ${late.trade_id}` })).toBeTruthy();
  });

  it("filters by status from page 1 and names the status when nothing matches", async () => {
    const fake = api();
    show(fake);
    await row("T20261128B");
    fireEvent.mouseDown(screen.getAllByRole("combobox")[0]);
    fireEvent.click(await screen.findByTitle("已关闭"));
    expect(await screen.findByText("没有已关闭的订单")).toBeTruthy();
    expect(fake.callsTo(OrdersApi.getUserOrder).at(-1)?.query).toEqual({ page: "1", size: "10", status: "-1" });
    expect(screen.queryByText("T20261128B")).toBeNull();
    // No purchase links under a filter: they only show for a customer with no orders at all.
    expect(screen.queryByText("购买套餐")).toBeNull();
  });

  it("shows a customer with no orders where to buy", async () => {
    show(api([]));
    expect(await screen.findByText("还没有订单")).toBeTruthy();
    expect(screen.getByText("购买套餐").closest("a")?.getAttribute("href")).toBe("/purchase/plan");
    expect(screen.getByText("余额充值").closest("a")?.getAttribute("href")).toBe("/epay/recharge");
  });

  it("cancels an awaiting order after the confirm, and shows the refusal when it was paid meanwhile", async () => {
    let paidMeanwhile = false;
    const fake = api().on(OrdersApi.postUserOrderTradeIDCancel, () => {
      if (paidMeanwhile) throw new ApiFailure(403, ErrorCode.BusinessRefused, "订单已支付，不能取消");
      return { ...awaiting, status: PayStatus.Closed };
    });
    show(fake);
    fireEvent.click(within(await row("T20261128B")).getByRole("button", { name: "取消订单 T20261128B" }));
    const confirm = await popconfirm("取消这个订单？");
    expect(within(confirm).getByText("取消后订单关闭，不能再支付。")).toBeTruthy();
    fireEvent.click(within(confirm).getByRole("button", { name: "再想想" }));
    expect(fake.callsTo(OrdersApi.postUserOrderTradeIDCancel)).toHaveLength(0);

    fireEvent.click(within(await row("T20261128B")).getByRole("button", { name: "取消订单 T20261128B" }));
    fireEvent.click(within(await popconfirm("取消这个订单？")).getByRole("button", { name: "取消订单" }));
    await waitFor(() => expect(fake.callsTo(OrdersApi.postUserOrderTradeIDCancel)).toHaveLength(1));
    expect(fake.callsTo(OrdersApi.postUserOrderTradeIDCancel)[0].path).toBe("/api/user/order/T20261128B/cancel");
    expect(await screen.findByText("订单已取消")).toBeTruthy();
    await waitFor(() => expect(fake.callsTo(OrdersApi.getUserOrder)).toHaveLength(2));

    paidMeanwhile = true;
    fireEvent.click(within(await row("T20261128B")).getByRole("button", { name: "取消订单 T20261128B" }));
    fireEvent.click(within(await popconfirm("取消这个订单？")).getByRole("button", { name: "取消订单" }));
    expect(await screen.findByText("订单已支付，不能取消")).toBeTruthy();
    // Refused too: the list is read again to show what the order is now.
    await waitFor(() => expect(fake.callsTo(OrdersApi.getUserOrder)).toHaveLength(3));
  });
});
