// @vitest-environment jsdom
import {
  type CreateOrderResult,
  ErrorCode,
  type OrderQuote,
  OrdersApi,
  type PlanPeriodPrice,
  type UserInfo,
  UsersApi,
} from "@burrow/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiFailure, FakeApi, type FakeCall, renderPage } from "@/testing/page-harness";
import { CheckoutPanel } from "./CheckoutPanel";

const periods: PlanPeriodPrice[] = [
  { period: "monthly", months: 1, fee: 1000, fee_discount: 1, price: 1000 },
  { period: "annual", months: 12, fee: 12000, fee_discount: 0.8, price: 9600 },
];
const me = { uid: 3, balance: 1500, nickname: "小王", personal_info: { avatar: "", phone_number: "13800000003" } };

/** The server's price for a preview: the period's price less the code's discount (a multiplier). */
function quoteFor(c: FakeCall): OrderQuote {
  const b = c.body as { period: "monthly" | "annual"; code?: string };
  const p = periods.find((x) => x.period === b.period) as PlanPeriodPrice;
  const codeDiscount = b.code === "SAVE10" ? Math.round(p.price * 0.1) : 0;
  return {
    type: 2,
    action: "new",
    plan_id: 8,
    plan_name: "标准版",
    period: p.period,
    months: p.months,
    fee: p.fee,
    price: p.price,
    code: b.code ?? null,
    code_discount: codeDiscount,
    upgrade_credit: 0,
    credit_to_balance: 0,
    bonus: 0,
    amount: p.price - codeDiscount,
    subscription_id: null,
    replaces_subscription_id: null,
    end_at: "2027-11-28T00:00:00.000Z",
  };
}

function api() {
  return new FakeApi()
    .on(UsersApi.getUserUserInfo, me as unknown as UserInfo)
    .on(OrdersApi.postUserOrderPreview, quoteFor)
    .on(OrdersApi.postUserDiscountCodeCheck, (c) => {
      if ((c.body as { code: string }).code.toUpperCase() !== "SAVE10")
        throw new ApiFailure(400, ErrorCode.InvalidParams, "code: 优惠码不存在或已失效", { field: "code" });
      return { code: "SAVE10", discount: 0.9, expire_date: "2027-01-01", plan_ids: [], quote: null };
    });
}

const pay = () => fireEvent.click(screen.getByText(/^立即购买/).closest("button") as HTMLElement);

describe("CheckoutPanel", () => {
  it("prices the chosen period with the server, applies a checked code, and pays with the balance", async () => {
    const onPaid = vi.fn();
    const paid: CreateOrderResult = { trade_id: "T1", status: 1, amount: 8640, pay_url: null };
    const fake = api().on(OrdersApi.postUserOrder, paid);
    renderPage(
      <CheckoutPanel
        target={{ type: 2, plan_id: 8 }}
        periods={periods}
        initialPeriod="monthly"
        submitText="立即购买"
        onPaid={onPaid}
      />,
      fake,
    );
    expect(await screen.findByText("立即购买 ¥10.00")).toBeTruthy();
    fireEvent.click(screen.getByText(/^年付/));
    expect(await screen.findByText("立即购买 ¥96.00")).toBeTruthy();
    // Not enough balance for the year: said before paying.
    expect(screen.getByText(/余额不足以支付本单/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText("优惠码"), { target: { value: "nope" } });
    fireEvent.click(screen.getByText("使用").closest("button") as HTMLElement);
    expect(await screen.findByText("优惠码不存在或已失效")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("优惠码"), { target: { value: "save10" } });
    fireEvent.click(screen.getByText("使用").closest("button") as HTMLElement);
    expect(await screen.findByText(/已使用优惠码 SAVE10/)).toBeTruthy();
    expect(await screen.findByText("立即购买 ¥86.40")).toBeTruthy();

    pay();
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(paid));
    expect(fake.callsTo(OrdersApi.postUserOrder)[0].body).toEqual({
      type: 2,
      plan_id: 8,
      period: "annual",
      pay_method: 1,
      code: "SAVE10",
    });
    expect(fake.unanswered).toEqual([]);
  });

  it("answers a refused balance payment with the way out, and pays online through the gateway's link", async () => {
    let online = false;
    const fake = api().on(OrdersApi.postUserOrder, (c) => {
      if ((c.body as { pay_method: number }).pay_method === 1)
        throw new ApiFailure(402, ErrorCode.InsufficientBalance, "余额不足，请先充值");
      online = true;
      return { trade_id: "T2", status: 0, amount: 9600, pay_url: "https://pay.example.com/submit?x=1" };
    });
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    renderPage(
      <CheckoutPanel
        target={{ type: 2, plan_id: 8 }}
        periods={periods}
        initialPeriod="annual"
        submitText="立即购买"
        onPaid={vi.fn()}
      />,
      fake,
    );
    expect(await screen.findByText("立即购买 ¥96.00")).toBeTruthy();
    pay();
    expect(await screen.findByText("余额不足")).toBeTruthy();
    expect(screen.getByText("去充值").closest("a")?.getAttribute("href")).toBe("/epay/recharge");

    fireEvent.click(screen.getByText("在线支付"));
    fireEvent.click(await screen.findByText("立即购买（在线支付） ¥96.00"));
    await waitFor(() => expect(online).toBe(true));
    expect(fake.callsTo(OrdersApi.postUserOrder)[1].body).toMatchObject({ pay_method: 2, pay_type: "alipay" });
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://pay.example.com/submit?x=1"));
  });
});
