import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, registerUser, userInfo } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createPlanApi, uniqueTitle } from "../fixtures/store";

/** The balance the recharge page shows, e.g. "30.00". */
const balanceCard = (page: Page) => page.locator(".ant-statistic").filter({ hasText: "当前余额（元）" });

/** Picks a day in an antd DatePicker by typing it. */
async function pickDay(page: Page, label: string, day: string, scope = page.locator("body")): Promise<void> {
  const input = scope.getByLabel(label);
  await input.click();
  await input.fill(day);
  await input.press("Enter");
}

test("the store journey: plan and promo code by an operator, recharge online, buy with the code, renew, refund", async ({
  browser,
}) => {
  // One long journey through two browsers: more steps than the suite's default allows for.
  test.setTimeout(180_000);
  const planName = uniqueTitle("E2E标准版");
  const code = uniqueTitle("E2E").toUpperCase();

  // --- The operator creates a plan and a promo code through the UI.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openSignedIn(admin, await adminToken(), "/admin/view");
  await sider(admin).getByRole("menuitem", { name: "套餐管理" }).click();
  await expect(admin).toHaveURL(/\/admin\/plan$/);
  await admin.getByRole("button", { name: "新建套餐" }).click();
  const planForm = admin.getByRole("dialog", { name: "新建套餐" });
  await planForm.getByRole("button", { name: "保存" }).click();
  await expect(planForm.getByText("请输入套餐名称")).toBeVisible();
  await planForm.getByLabel("套餐名称").fill(planName);
  await planForm.getByLabel("标签").fill("推荐");
  await chooseOption(admin, planForm.getByLabel("商店等级"), "标准版（等级 2）");
  await planForm.getByLabel("流量（GB/月）").fill("100");
  await planForm.getByLabel("带宽（Mbps）").fill("20");
  await planForm.getByLabel("隧道数").fill("8");
  await planForm.getByLabel("单隧道端口数").fill("2");
  await planForm.getByLabel("月付价格（元）").fill("10");
  await planForm.getByLabel("季付价格（元）").fill("27");
  await planForm.getByLabel("季付折扣").fill("0.9");
  await expect(planForm.getByText("实付 ¥24.30（9折）")).toBeVisible();
  await planForm.getByRole("button", { name: "保存" }).click();
  await expect(admin.getByText("套餐已创建")).toBeVisible();
  const planRow = admin.getByRole("row", { name: new RegExp(planName) });
  await expect(planRow).toContainText("季付 ¥24.30");
  await expect(planRow).toContainText("标准版");

  await sider(admin).getByRole("menuitem", { name: "营销" }).click();
  await sider(admin).getByRole("menuitem", { name: "优惠码" }).click();
  await expect(admin).toHaveURL(/\/admin\/market\/code$/);
  await admin.getByRole("button", { name: "新建优惠码" }).click();
  const codeForm = admin.getByRole("dialog", { name: "新建优惠码" });
  await codeForm.getByLabel("优惠码").fill(code);
  await codeForm.getByLabel("折扣").fill("0.8");
  await pickDay(admin, "过期日期", "2030-12-31", codeForm);
  await chooseOption(admin, codeForm.getByLabel("适用套餐"), planName);
  await codeForm.getByRole("button", { name: "保存" }).click();
  await expect(admin.getByText("优惠码已创建")).toBeVisible();
  const codeRow = admin.getByRole("row", { name: new RegExp(code) });
  await expect(codeRow).toContainText("8折");
  await expect(codeRow).toContainText(planName);

  // --- A customer recharges ¥30 through the sandbox gateway.
  const customer = await registerUser();
  const page = await browser.newPage();
  await openSignedIn(page, customer.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "余额充值" }).click();
  await expect(page).toHaveURL(/\/epay\/recharge$/);
  await expect(balanceCard(page)).toContainText("0.00");
  await page.locator(".recharge-form label").filter({ hasText: /^¥30$/ }).click();
  await page.getByRole("button", { name: "立即充值 ¥30.00" }).click();
  await expect(page).toHaveURL(/\/api\/pay\/sandbox\/submit\.php\?/);
  await expect(page.getByRole("heading", { name: "收银台" })).toBeVisible();
  await expect(page.getByText("¥30.00")).toBeVisible();
  await page.getByRole("button", { name: "确认支付" }).click();
  await expect(page).toHaveURL(/\/result\/pay\?trade_id=\d+/);
  await expect(page.getByText("支付成功")).toBeVisible();
  await expect(page.getByText("余额充值 30.00 元")).toBeVisible();
  await page.getByRole("button", { name: "查看余额" }).click();
  await expect(page).toHaveURL(/\/epay\/recharge$/);
  await expect(balanceCard(page)).toContainText("30.00");
  await expect(page.getByRole("row", { name: /在线充值/ })).toContainText("+30.00");

  // --- It buys the plan for a quarter with the promo code, paying from the balance.
  await sider(page).getByRole("menuitem", { name: "购买套餐" }).click();
  await expect(page).toHaveURL(/\/purchase\/plan$/);
  await page.getByText("季付", { exact: true }).click();
  const card = page.locator(".store-plan-card").filter({ hasText: planName });
  await expect(card).toContainText("¥24.30");
  await expect(card).toContainText("9折");
  await card.getByRole("button", { name: `立即购买 ${planName}` }).click();
  await expect(page).toHaveURL(/\/purchase\/plan\/\d+\?period=quarterly$/);
  const prices = page.getByRole("region", { name: "价格明细" });
  await expect(prices).toContainText("应付金额¥24.30");
  await page.getByLabel("优惠码").fill("NOPE-CODE");
  await page.getByRole("button", { name: "使用" }).click();
  await expect(page.getByText("优惠码不存在")).toBeVisible();
  await page.getByLabel("优惠码").fill(code.toLowerCase());
  await page.getByRole("button", { name: "使用" }).click();
  await expect(page.getByText(`已使用优惠码 ${code}（8折）`)).toBeVisible();
  await expect(prices).toContainText(`优惠码 ${code}-¥4.86`);
  await expect(prices).toContainText("应付金额¥19.44");
  await page.getByRole("button", { name: "立即支付 ¥19.44" }).click();
  await expect(page.getByText("支付成功")).toBeVisible();
  await expect(page).toHaveURL(/\/epay\/plan$/);
  expect((await userInfo(customer.token)).balance).toBe(3000 - 1944);

  // --- It sees the plan on /epay/plan, in use, and renews it for a month.
  // (the free plan it replaced names it too: 由「…」取代)
  const subRow = page.locator(".ant-table-row").filter({ hasText: planName }).filter({ hasText: "使用中" });
  await expect(subRow).toContainText("使用中");
  await expect(subRow).toContainText("季付");
  const endBefore = (await subRow.locator("td").nth(4).textContent()) ?? "";
  await subRow.getByRole("link", { name: `续费 ${planName}` }).click();
  await expect(page).toHaveURL(/\/epay\/plan\/\d+$/);
  await expect(page.getByRole("heading", { name: `续费 · ${planName}` })).toBeVisible();
  await page.locator(".checkout-periods label").filter({ hasText: "月付" }).click();
  await expect(prices).toContainText("续费");
  await expect(prices).toContainText("应付金额¥10.00");
  await page.getByRole("button", { name: "立即续费 ¥10.00" }).click();
  await expect(page.getByText("支付成功")).toBeVisible();
  await expect(page).toHaveURL(/\/epay\/plan$/);
  await expect(subRow.locator("td").nth(4)).not.toHaveText(endBefore);
  const endAfter = (await subRow.locator("td").nth(4).textContent()) ?? "";
  expect(endAfter > endBefore).toBe(true);
  expect((await userInfo(customer.token)).balance).toBe(3000 - 1944 - 1000);

  // --- The operator finds the registration, then refunds the renewal to the balance on /admin/order.
  await admin.goto(`/admin/order/reg?user_id=${customer.uid}`);
  await expect(admin.getByRole("heading", { name: "套餐开通记录" })).toBeVisible();
  await expect(admin.locator(".ant-table-row").filter({ hasText: planName })).toContainText("使用中");
  // The 订单 group is open on this page.
  await sider(admin).getByRole("menuitem", { name: "订单管理" }).click();
  await expect(admin).toHaveURL(/\/admin\/order$/);
  await expect(admin.getByRole("heading", { name: "订单管理" })).toBeVisible();
  await admin.getByLabel("用户 UID").fill(String(customer.uid));
  await admin.getByRole("button", { name: "查询" }).click();
  await expect(admin).toHaveURL(new RegExp(`user_id=${customer.uid}`));
  await expect(admin.getByRole("row")).toHaveCount(4);
  const renewal = admin.getByRole("row").filter({ hasText: "续费" });
  await renewal.getByRole("button", { name: /详情/ }).click();
  const drawer = admin.getByRole("dialog").filter({ hasText: "订单详情" });
  await expect(drawer).toContainText(planName);
  await expect(drawer).toContainText("已支付");
  await drawer.getByRole("button", { name: "退款到余额" }).click();
  const confirm = admin.getByRole("dialog").filter({ hasText: "退款到余额？" });
  await expect(confirm).toContainText(customer.phone);
  // The value model's amount and why: what taking the renewal back removes, at most its 10.00
  // (a little less when the renewal's days cost more than the first quarter's).
  const due = confirm.locator(".ant-descriptions-row").filter({ hasText: "按剩余价值可退" });
  await expect(due).toContainText(/¥\d+\.\d\d/);
  const refunded = /¥(\d+\.\d\d)/.exec((await due.textContent()) ?? "")?.[1] ?? "";
  expect(Number(refunded)).toBeGreaterThan(9);
  expect(Number(refunded)).toBeLessThanOrEqual(10);
  await expect(confirm.locator(".ant-descriptions-row").filter({ hasText: "计算依据" })).toContainText(
    "续费加入 1000 分",
  );
  await expect(confirm.getByRole("checkbox", { name: /人工调整退款金额/ })).toBeEnabled();
  await confirm.getByRole("button", { name: "确认退款" }).click();
  await expect(admin.getByText(`已退款 ¥${refunded} 到用户余额`)).toBeVisible();
  await expect(drawer).toContainText("已退款");
  await expect(drawer.getByRole("button", { name: "退款到余额" })).toHaveCount(0);
  await adminContext.close();

  // --- The customer sees the money back.
  await sider(page).getByRole("menuitem", { name: "余额充值" }).click();
  await expect(balanceCard(page)).toContainText((0.56 + Number(refunded)).toFixed(2));
  await expect(page.getByRole("row", { name: /订单退款/ })).toContainText(`+${refunded}`);
  await page.close();
});

test("gift cards: an operator generates and exports a batch, a customer redeems one card of it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const adminContext = await browser.newContext({ acceptDownloads: true });
  const admin = await adminContext.newPage();
  await openSignedIn(admin, await adminToken(), "/admin/market/gift");
  await expect(admin.getByRole("heading", { name: "礼品卡" })).toBeVisible();
  await admin.getByRole("button", { name: "生成礼品卡" }).click();
  const form = admin.getByRole("dialog", { name: "生成礼品卡" });
  await form.getByLabel("数量（张）").fill("2");
  await form.getByLabel("面值（元）").fill("5");
  await pickDay(admin, "过期日期", "2030-12-31", form);
  await form.getByRole("button", { name: "生成" }).click();
  const created = admin.getByRole("dialog", { name: "已生成 2 张礼品卡" });
  await expect(created).toBeVisible();
  const numbers = (await created.getByLabel("生成的卡号").inputValue()).split("\n");
  expect(numbers).toHaveLength(2);

  const downloading = admin.waitForEvent("download");
  await created.getByRole("button", { name: "导出本批次" }).click();
  const csv = readFileSync((await (await downloading).path()) ?? "", "utf8");
  expect(csv).toContain("卡号,类型,面值（元）");
  for (const n of numbers) expect(csv).toContain(`${n},余额,5.00`);
  await created.getByRole("button", { name: "完成" }).click();

  const customer = await registerUser();
  const page = await browser.newPage();
  await openSignedIn(page, customer.token, "/epay/recharge");
  const redeem = page.locator(".ant-card").filter({ hasText: "礼品卡兑换" });
  await redeem.getByLabel("卡号").fill(numbers[0]);
  await redeem.getByRole("button", { name: "兑换" }).click();
  await expect(page.getByText("兑换成功，¥5.00 已到账")).toBeVisible();
  await expect(balanceCard(page)).toContainText("5.00");
  await expect(page.getByRole("row", { name: new RegExp(`礼品卡兑换 ${numbers[0]}`) })).toContainText("+5.00");

  // The same card again is refused on the field; the batch allows one card per customer.
  await redeem.getByLabel("卡号").fill(numbers[0]);
  await redeem.getByRole("button", { name: "兑换" }).click();
  await expect(redeem.getByText("你已兑换过该礼品卡")).toBeVisible();
  await redeem.getByLabel("卡号").fill(numbers[1]);
  await redeem.getByRole("button", { name: "兑换" }).click();
  await expect(page.getByText("此批礼品卡每位用户最多兑换 1 张")).toBeVisible();
  expect((await userInfo(customer.token)).balance).toBe(500);

  // The operator sees who redeemed it.
  await admin.getByLabel("卡号", { exact: true }).fill(numbers[0]);
  await admin.getByRole("button", { name: "查询" }).click();
  const row = admin.getByRole("row", { name: new RegExp(numbers[0]) });
  await expect(row).toContainText("已兑换");
  await expect(row).toContainText(`UID ${customer.uid}`);
  await adminContext.close();
  await page.close();
});

test("buying with too little balance says so and links to the recharge page", async ({ page }) => {
  const plan = await createPlanApi(await adminToken(), { name: uniqueTitle("E2E贵的"), monthly_fee: 5000 });
  const customer = await registerUser();
  await openSignedIn(page, customer.token, `/purchase/plan/${plan.id}`);
  await expect(page.getByRole("heading", { name: `购买 · ${plan.name}` })).toBeVisible();
  await expect(page.getByRole("region", { name: "价格明细" })).toContainText("应付金额¥50.00");
  await page.getByRole("button", { name: "立即支付 ¥50.00" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "余额不足" });
  await expect(alert).toContainText("当前余额 ¥0.00，本单需支付 ¥50.00");
  await alert.getByRole("link", { name: "去充值" }).click();
  await expect(page).toHaveURL(/\/epay\/recharge$/);
  expect((await userInfo(customer.token)).balance).toBe(0);
});

test("a recharge promotion: an operator runs one, a customer's online recharge earns the bonus", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const name = uniqueTitle("E2E满送");
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openSignedIn(admin, await adminToken(), "/admin/market/recharge");
  await admin.getByRole("button", { name: "新建充值优惠" }).click();
  const form = admin.getByRole("dialog", { name: "新建充值优惠" });
  await form.getByLabel("名称").fill(name);
  await form.getByLabel("起充金额（元）").fill("200");
  await form.getByLabel("赠送金额（元）").fill("20");
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  await form.getByPlaceholder("开始日期").click();
  await form.getByPlaceholder("开始日期").fill(today);
  await form.getByPlaceholder("结束日期").click();
  await form.getByPlaceholder("结束日期").fill("2030-12-31");
  await form.getByPlaceholder("结束日期").press("Enter");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(admin.getByText("充值优惠已创建")).toBeVisible();
  const promoRow = admin.locator(".ant-table-row").filter({ hasText: name });
  await expect(promoRow).toContainText("进行中");

  const customer = await registerUser();
  const page = await browser.newPage();
  await openSignedIn(page, customer.token, "/epay/recharge");
  await expect(page.getByText(`${name}：满 ¥200.00 送 ¥20.00`)).toBeVisible();
  await page.getByLabel("充值金额（元）").fill("150");
  await expect(page.getByText("再充 ¥50.00 可获赠 ¥20.00")).toBeVisible();
  await page
    .locator(".recharge-form label")
    .filter({ hasText: /^¥200$/ })
    .click();
  await expect(page.getByText("本次充值赠送 ¥20.00，到账 ¥220.00")).toBeVisible();
  await page.getByRole("button", { name: "立即充值 ¥200.00" }).click();
  await page.getByRole("button", { name: "确认支付" }).click();
  await expect(page).toHaveURL(/\/result\/pay\?trade_id=/);
  await expect(page.getByText("支付成功")).toBeVisible();
  await expect(page.locator(".pay-result-details")).toContainText("¥20.00");
  expect((await userInfo(customer.token)).balance).toBe(22000);
  await page.close();

  // Ended: the operator removes it, and recharges stop earning it.
  await promoRow.getByRole("button", { name: "删除" }).click();
  await admin.getByRole("dialog").filter({ hasText: "删除充值优惠？" }).getByRole("button", { name: "删除" }).click();
  await expect(admin.getByText("充值优惠已删除")).toBeVisible();
  await expect(promoRow).toHaveCount(0);
  await adminContext.close();
});

test("a payment cancelled at the gateway: the result page waits, the customer closes the order", async ({ page }) => {
  const customer = await registerUser();
  await openSignedIn(page, customer.token, "/epay/recharge");
  await page.getByRole("button", { name: "立即充值 ¥10.00" }).click();
  await expect(page.getByRole("heading", { name: "收银台" })).toBeVisible();
  await page.getByRole("button", { name: "取消支付" }).click();
  await expect(page).toHaveURL(/\/result\/pay\?trade_id=\d+/);
  await expect(page.getByText("等待支付结果…")).toBeVisible();
  await expect(page.getByRole("link", { name: "继续支付" })).toHaveAttribute(
    "href",
    /\/api\/pay\/sandbox\/submit\.php\?/,
  );
  await page.getByRole("button", { name: "取消订单" }).click();
  await expect(page.getByText("订单已关闭")).toBeVisible();
  await page.getByRole("button", { name: "重新充值" }).click();
  await expect(page).toHaveURL(/\/epay\/recharge$/);
  expect((await userInfo(customer.token)).balance).toBe(0);
});
