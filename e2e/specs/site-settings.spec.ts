import { DashboardApi, OrdersApi, TunnelsApi, UsermgrApi, VerifyApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";
import { createPlanApi, uniqueTitle } from "../fixtures/store";

const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

async function expectNoSidewaysScroll(page: Page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
}

/**
 * Issue 35 §7: the site-wide settings on one page (in the admin menu), every value a label; the
 * user's detail page says the tunnel rule is site-wide and links there instead of a per-user switch.
 */
for (const size of SIZES) {
  test(`site settings: one page, labels not codes, the user page links to it (${size.width}×${size.height})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const token = await adminToken();
    // A known start (the rule is site-wide; other specs create tunnels unverified).
    await call(VerifyApi.patchSuperVerifySetting, { token, body: { required_for_tunnels: false } });
    const user = await registerUser();
    await page.setViewportSize(size);
    await openSignedIn(page, token, "/admin/view");
    if (size.width > 800) {
      await sider(page).getByRole("menuitem", { name: "站点设置" }).click();
    } else {
      await page.goto("/admin/setting");
    }
    await expect(page).toHaveURL(/\/admin\/setting$/);
    await expect(page.getByRole("heading", { name: "站点设置" })).toBeVisible({ timeout: 20_000 });
    const main = page.locator("main");
    await expect(main).toContainText("沙箱（开发测试，不核验身份）");
    await expect(main).toContainText("沙箱支付（不收款");
    await expect(main).toContainText("仅打印在服务器日志");
    await expect(main).toContainText("每日签到流量");
    await expect(main.getByLabel("返利比例（%）")).toBeVisible();
    // No raw code shown to a person.
    for (const code of ["sandbox", "console", "epay"])
      expect(await main.innerText()).not.toMatch(new RegExp(`\\b${code}\\b`));
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath(`settings-${size.width}.png`), fullPage: true });

    // The switch changes the site-wide rule (restored after: other specs create tunnels unverified).
    const toggle = main.getByRole("switch", { name: "创建隧道需要实名认证" });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(toggle).toBeChecked();
    try {
      expect((await call(VerifyApi.getSuperVerifySetting, { token })).required_for_tunnels).toBe(true);
      await page.goto(`/admin/usermgr/list/${user.uid}`);
      const verifyCard = page.locator(".ant-card").filter({ hasText: "实名认证" }).first();
      await expect(verifyCard).toContainText("全站规则：创建隧道需要实名认证", { timeout: 20_000 });
      await expect(verifyCard.getByRole("switch")).toHaveCount(0);
      await verifyCard.getByRole("link", { name: "在站点设置中修改" }).click();
      await expect(page).toHaveURL(/\/admin\/setting$/);
    } finally {
      await call(VerifyApi.patchSuperVerifySetting, { token, body: { required_for_tunnels: false } });
    }
  });
}

/** Issue 35 §10: after buying a plan, the free plan says it was replaced and where its check-in traffic went. */
for (const size of SIZES) {
  test(`my plans: the replaced free plan and its carried bonus (${size.width}×${size.height})`, async ({ page }) => {
    test.setTimeout(90_000);
    const token = await adminToken();
    const planName = uniqueTitle("签到套餐");
    const plan = await createPlanApi(token, { name: planName, monthly_fee: 100 });
    const user = await registerUser();
    const bonus = await call(DashboardApi.getUserCheckIn, { token: user.token });
    await call(UsermgrApi.patchSuperUserInfo, {
      token,
      body: { uid: user.uid, balance_change: 100, balance_reason: "e2e" },
    });
    await call(OrdersApi.postUserOrder, {
      token: user.token,
      body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
    });
    await page.setViewportSize(size);
    await openSignedIn(page, user.token, "/epay/plan");
    await expect(page.getByRole("heading", { name: "我的套餐" })).toBeVisible({ timeout: 20_000 });
    const main = page.locator("main");
    await expect(main).toContainText("已被取代");
    await expect(main).toContainText(`由「${planName}」取代`);
    const mb = Math.round(bonus.bonus_bytes / 1024 / 1024);
    await expect(main).toContainText(new RegExp(`未用完的赠送流量 ${mb}(\\.\\d+)? MB 已转入「${planName}」`));
    await expect(main).not.toContainText("已过期");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath(`myplans-${size.width}.png`), fullPage: true });
  });
}

/** Issue 35 §13: a flag whose tunnel was deleted offers only to close the record. */
test("illegal tunnels: a deleted tunnel's record offers only 关闭记录", async ({ page }) => {
  test.setTimeout(90_000);
  const token = await adminToken();
  const word = uniqueName("gone").toLowerCase();
  await call(TunnelsApi.postSuperTunIllegalRule, { token, body: { kind: "keyword", value: word, note: "e2e" } });
  const user = await registerUser();
  const tun = await createTunnelApi(user.token, (await localNode(token)).node_id, `x-${word}`);
  await call(TunnelsApi.deleteUserTun, { token: user.token, body: { tun_id: tun.tun_id } });
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, token, `/admin/tun/illegal?tun_id=${tun.tun_id}`);
  const row = page.locator("tr.ant-table-row").filter({ hasText: `x-${word}` });
  await expect(row).toContainText("已删除", { timeout: 20_000 });
  await expect(row.getByRole("button", { name: "封禁" })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "忽略" })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("illegal-deleted-1366.png"), fullPage: true });
  await row.getByRole("button", { name: "关闭记录" }).click();
  await expect(page.locator(".ant-popconfirm")).toContainText("隧道已删除，无需封禁");
  await confirmPopover(page, "关闭记录");
  await expect(page.getByText("记录已关闭")).toBeVisible();
  await expect(row).toContainText("已忽略");
});
