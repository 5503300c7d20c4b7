import { type CreateOrderResult, OrdersApi, type OrderView } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createPlanApi, uniqueTitle } from "../fixtures/store";

/*
 * 我的订单 (/epay/order, issue 35 §9): every order of the customer — plans, traffic packs,
 * renewals, recharges, abandoned ones — with its status label, amount in yuan and Beijing time; a
 * status filter, paging, and 去支付 / 取消 for an order awaiting payment.
 */

/** An API time as the console shows it: Beijing time, "YYYY-MM-DD HH:mm:ss". */
const beijing = (iso: string) =>
  new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).format(new Date(iso));

/** An online recharge left awaiting payment (what a customer who closes the gateway page leaves). */
const awaitingRecharge = (token: string, fen: number) =>
  call(OrdersApi.postUserOrder, { token, body: { type: 1, amount: fen, pay_method: 2 } });

const orderRow = (page: Page, tradeId: string) => page.getByRole("row").filter({ hasText: tradeId });

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

test("我的订单 lists every order with its status, pays and cancels one awaiting payment, filters and pages (1366×768)", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const admin = await adminToken();
  const plan = await createPlanApi(admin, { name: uniqueTitle("订单套餐"), monthly_fee: 1000 });
  const pack = await createPlanApi(admin, { name: uniqueTitle("订单流量包"), type: 3, monthly_fee: 300 });
  const customer = await registerUser();
  const paid: CreateOrderResult = await awaitingRecharge(customer.token, 5000);
  const dropped = await awaitingRecharge(customer.token, 2000);

  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, customer.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "我的订单" }).click();
  await expect(page).toHaveURL(/\/epay\/order$/);
  await expect(page.getByRole("heading", { name: "我的订单" })).toBeVisible();
  const { list } = await call(OrdersApi.getUserOrder, { token: customer.token });
  for (const o of list) {
    const row = orderRow(page, o.trade_id);
    await expect(row).toContainText("待支付");
    await expect(row).toContainText("余额充值");
    await expect(row).toContainText((o.amount / 100).toFixed(2));
    await expect(row).toContainText(beijing(o.created_at));
    await expect(row.getByRole("link", { name: `支付订单 ${o.trade_id}` })).toBeVisible();
  }

  // Cancel the ¥20 one: it closes, and may no longer be paid.
  await orderRow(page, dropped.trade_id)
    .getByRole("button", { name: `取消订单 ${dropped.trade_id}` })
    .click();
  await confirmPopover(page, "取消订单");
  await expect(page.getByText("订单已取消")).toBeVisible();
  await expect(orderRow(page, dropped.trade_id)).toContainText("已关闭");
  await expect(orderRow(page, dropped.trade_id).getByRole("link", { name: /支付订单/ })).toHaveCount(0);
  await expect(orderRow(page, dropped.trade_id).getByRole("button", { name: /取消订单/ })).toHaveCount(0);

  // Pay the ¥50 one at the (sandbox) gateway, from its 去支付.
  await orderRow(page, paid.trade_id)
    .getByRole("link", { name: `支付订单 ${paid.trade_id}` })
    .click();
  await expect(page).toHaveURL(/\/api\/pay\/sandbox\/submit\.php\?/);
  await page.getByRole("button", { name: "确认支付" }).click();
  await expect(page).toHaveURL(/\/result\/pay\?trade_id=\d+/);
  await expect(page.getByText("支付成功")).toBeVisible();

  // A plan, a traffic pack and a renewal, paid from that balance.
  const bought = await call(OrdersApi.postUserOrder, {
    token: customer.token,
    body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
  });
  await call(OrdersApi.postUserOrder, {
    token: customer.token,
    body: { type: 3, plan_id: pack.id, period: "monthly", pay_method: 1 },
  });
  await call(OrdersApi.postUserOrder, {
    token: customer.token,
    body: { type: 4, trade_id: bought.trade_id, period: "monthly", pay_method: 1 },
  });
  await page.goto("/epay/order");
  await expect(orderRow(page, paid.trade_id)).toContainText("已支付");
  const all = (await call(OrdersApi.getUserOrder, { token: customer.token })).list;
  const byType = (type: number): OrderView => all.find((o) => o.type === type)!;
  for (const [type, label] of [
    [2, "套餐订阅"],
    [3, "流量包"],
    [4, "续费"],
  ] as const) {
    const row = orderRow(page, byType(type).trade_id);
    await expect(row).toContainText(label);
    await expect(row).toContainText("已支付");
    await expect(row).toContainText((byType(type).amount / 100).toFixed(2));
  }

  // The detail: what it cost and when, in Beijing time.
  await orderRow(page, paid.trade_id)
    .getByRole("button", { name: `订单 ${paid.trade_id} 详情` })
    .click();
  const drawer = page.getByRole("dialog", { name: "订单详情" });
  await expect(drawer).toContainText(paid.trade_id);
  const paidView = all.find((o) => o.trade_id === paid.trade_id)!;
  await expect(drawer).toContainText(`支付时间${beijing(paidView.paid_at!)}`);
  await expect(drawer).toContainText("应付金额¥50.00");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // Filter by status.
  const filter = page.locator(".ant-select").filter({ hasText: "全部" });
  await filter.click();
  await page.locator(".ant-select-dropdown").filter({ visible: true }).getByTitle("已关闭", { exact: true }).click();
  await expect(page.locator(".ant-table-tbody tr.ant-table-row")).toHaveCount(1);
  await expect(orderRow(page, dropped.trade_id)).toBeVisible();
  await page.locator(".ant-select").filter({ hasText: "已关闭" }).click();
  await page.locator(".ant-select-dropdown").filter({ visible: true }).getByTitle("待支付", { exact: true }).click();
  await expect(page.getByText("没有待支付的订单")).toBeVisible();

  // Paging: ten more awaiting (the most one customer may hold) make 15, two pages of ten.
  for (let i = 0; i < 10; i++) await awaitingRecharge(customer.token, 100 + i);
  await page.reload();
  await expect(page.getByText("共 15 条")).toBeVisible();
  await expect(page.locator(".ant-table-tbody tr.ant-table-row")).toHaveCount(10);
  await page.locator(".ant-pagination-item-2").click();
  await expect(page.locator(".ant-table-tbody tr.ant-table-row")).toHaveCount(5);
  await expect(orderRow(page, dropped.trade_id)).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
});

test("我的订单 on a phone (390×844): one card per order, status first, pay and cancel in reach", async ({ page }) => {
  const customer = await registerUser();
  const keep = await awaitingRecharge(customer.token, 3000);
  const drop = await awaitingRecharge(customer.token, 1200);
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, customer.token, "/epay/order");
  const cards = page.getByTestId("my-order");
  await expect(cards).toHaveCount(2);
  const card = cards.filter({ hasText: "12.00" });
  // The status is the card's first line, and every action is on screen without sideways scrolling.
  await expect(card.locator(".ant-tag").first()).toHaveText("待支付");
  await expect(card.getByRole("link", { name: `支付订单 ${drop.trade_id}` })).toBeInViewport();
  await card.getByRole("button", { name: `取消订单 ${drop.trade_id}` }).click();
  await confirmPopover(page, "取消订单");
  await expect(card.locator(".ant-tag").first()).toHaveText("已关闭");
  await expect(
    cards.filter({ hasText: "30.00" }).getByRole("link", { name: `支付订单 ${keep.trade_id}` }),
  ).toBeVisible();
  expect(await scrollsSideways(page)).toBe(false);
  // Its detail fills the screen.
  await cards
    .filter({ hasText: "30.00" })
    .getByRole("button", { name: `订单 ${keep.trade_id} 详情` })
    .click();
  const drawer = page.getByRole("dialog", { name: "订单详情" });
  await expect(drawer).toContainText(keep.trade_id);
  expect((await drawer.boundingBox())?.width).toBeGreaterThan(380);
});
