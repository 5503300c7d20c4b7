import { OrdersApi, TicketsApi } from "@burrow/contract";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

/*
 * Issue 35 §13's smaller things: the ticket sidebar's tables fit their cards (protocols in upper
 * case), /aipage names a tunnel by its name and shows no empty conversation list beside a log
 * reading, and the sandbox gateway's page asks for nothing that is missing (its favicon).
 */

const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

/** How far a card's table sticks out of the card's body (px; ≤ 0 when it fits), and whether it scrolls. */
const overflow = (card: Locator) =>
  card.evaluate((el) => {
    const body = el.querySelector(".ant-card-body") as HTMLElement;
    const table = el.querySelector(".ant-table-content, .ant-table-body") as HTMLElement;
    const inner = el.querySelector("table") as HTMLElement;
    return {
      out: inner.getBoundingClientRect().right - body.getBoundingClientRect().right,
      scrolls: table.scrollWidth > table.clientWidth + 1,
    };
  });

for (const vp of SIZES) {
  test(`the ticket sidebar's tunnels and recent orders fit their cards at ${vp.width}×${vp.height}`, async ({
    page,
  }) => {
    const admin = await adminToken();
    const customer = await registerUser();
    await createTunnelApi(customer.token, (await localNode(customer.token)).node_id, uniqueName("side-"));
    const dropped = await call(OrdersApi.postUserOrder, {
      token: customer.token,
      body: { type: 1, amount: 88800, pay_method: 2 },
    });
    await call(OrdersApi.postUserOrderTradeIDCancel, { token: customer.token, params: { tradeID: dropped.trade_id } });
    await call(OrdersApi.postUserOrder, { token: customer.token, body: { type: 1, amount: 123456, pay_method: 2 } });
    const ticket = await call(TicketsApi.postUserTicket, {
      token: customer.token,
      body: { title: "充值没到账", category: "billing", content: "付款后余额没有变化" },
    });
    await page.setViewportSize(vp);
    await openSignedIn(page, admin, `/admin/mgr/ticket/${ticket.ticket_id}`);
    const orders = page.locator(".ant-card").filter({ has: page.getByText("最近订单", { exact: true }) });
    const tunnels = page.locator(".ant-card").filter({ has: page.getByText("隧道（1）", { exact: true }) });
    await expect(orders.locator(".ant-table-row")).toHaveCount(2);
    await expect(orders).toContainText("1234.56");
    await expect(orders).toContainText("待支付");
    await expect(orders).toContainText("已关闭");
    await expect(tunnels.locator(".ant-table-row")).toHaveCount(1);
    await expect(tunnels.getByRole("cell", { name: "TCP", exact: true })).toBeVisible();
    for (const card of [orders, tunnels]) {
      const { out, scrolls } = await overflow(card);
      expect(out).toBeLessThanOrEqual(1);
      expect(scrolls).toBe(false);
    }
  });

  test(`/aipage names the tunnel a log line is about and lists no empty conversations beside a reading (${vp.width}×${vp.height})`, async ({
    page,
  }) => {
    // No AI endpoint, as on a fresh install: the page reads the log offline and keeps nothing.
    await page.route("**/api/user/assistant/status", (route) =>
      route.fulfill({
        json: { code: "SUCCESS", msg: "ok", data: { configured: false, daily_limit: 30, used_today: 0 } },
      }),
    );
    const customer = await registerUser();
    const tunnel = await createTunnelApi(customer.token, (await localNode(customer.token)).node_id, uniqueName("ai-"));
    await page.setViewportSize(vp);
    await openSignedIn(page, customer.token, "/aipage");
    await expect(page.getByText("AI 助手未配置")).toBeVisible({ timeout: 30_000 });
    await page
      .getByLabel("提问")
      .fill(`2026-11-24 10:00:00.000 [W] [client/control.go:163] [t_${tunnel.tun_id}] start error: port already used`);
    await page.getByRole("button", { name: "解读日志" }).click();
    const explained = page.getByTestId("log-explanations");
    await expect(explained).toContainText("远程端口已被占用");
    const fix = explained.getByRole("link", { name: `去处理：隧道「${tunnel.tun_name}」` });
    await expect(fix).toHaveAttribute("href", `/tun/list/${tunnel.tun_id}`);
    await expect(page.getByText("还没有对话")).toHaveCount(0);
    await expect(page.getByText("对话", { exact: true })).toHaveCount(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
    ).toBe(true);
  });
}

test("/aipage with an AI endpoint lists the new conversation while its answer is still being written", async ({
  page,
}) => {
  const customer = await registerUser();
  // The page reads the stored conversation back once the answer has streamed; held here, the answer
  // stays "being written" for as long as the test looks (the list must not wait for it).
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route("**/api/user/assistant/conversation/*", async (route) => {
    await held;
    await route.continue();
  });
  await openSignedIn(page, customer.token, "/aipage");
  await expect(page.getByText("还没有对话")).toBeVisible({ timeout: 30_000 });
  await page
    .getByLabel("提问")
    .fill("2026-11-24 10:00:00.000 [W] [client/control.go:163] [t_1] start error: port already used");
  await page.getByRole("button", { name: "发送" }).click();
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(1);
  await expect(page.getByText("还没有对话")).toHaveCount(0);
  await expect(page.getByLabel("正在回答")).toBeVisible();
  release();
  await expect(page.getByLabel("正在回答")).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(1);
});

/** Every answer of 400 or more the page got while it loaded. */
function failures(page: Page): string[] {
  const bad: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`);
  });
  return bad;
}

test("the sandbox gateway's page has its icon and asks for nothing missing", async ({ page }) => {
  const customer = await registerUser();
  const order = await call(OrdersApi.postUserOrder, {
    token: customer.token,
    body: { type: 1, amount: 1000, pay_method: 2 },
  });
  const bad = failures(page);
  await page.goto(order.pay_url ?? "");
  await expect(page.getByRole("heading", { name: "收银台" })).toBeVisible();
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /^data:image\/svg\+xml,/);
  await page.waitForLoadState("networkidle");
  expect(bad).toEqual([]);
});
