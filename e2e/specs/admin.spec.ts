import { expect, test } from "@playwright/test";
import { adminToken, login, registerUser, userInfo } from "../fixtures/api";
import { openSignedIn, sider, storedToken } from "../fixtures/browser";
import { ADMIN } from "../fixtures/env";

test("staff reach the admin overview from the console and come back", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("手机号").fill(ADMIN.phone);
  await page.getByLabel("密码").fill(ADMIN.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await sider(page).getByRole("menuitem", { name: "管理后台" }).click();
  await expect(page).toHaveURL(/\/admin\/view$/);
  await expect(page.getByRole("heading", { name: "数据概览" })).toBeVisible();
  await expect(page.getByText("用户总数")).toBeVisible();
  await expect(page.getByRole("img", { name: /近 30 天注册趋势/ })).toBeVisible();
  await expect(page.locator(".signup-chart canvas")).toHaveCount(1);

  const menu = sider(page).getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "概览" })).toHaveClass(/ant-menu-item-selected/);
  await menu.getByRole("menuitem", { name: "审计日志" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByRole("heading", { name: "审计日志" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "审计日志" })).toHaveClass(/ant-menu-item-selected/);

  await menu.getByRole("menuitem", { name: "返回用户端" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/adm");
  await expect(page).toHaveURL(/\/admin\/view$/);
});

test("an operator bans a user, whose next call lands on /login", async ({ browser }) => {
  const victim = await registerUser();

  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await openSignedIn(userPage, victim.token, "/dashboard");
  await expect(userPage.getByText("账户余额（元）")).toBeVisible();

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await openSignedIn(adminPage, await adminToken(), "/admin/usermgr/list");
  await adminPage.getByLabel("手机号").fill(victim.phone);
  await adminPage.getByRole("button", { name: "查询" }).click();
  await expect(adminPage).toHaveURL(new RegExp(`phone=${victim.phone}`));
  const row = adminPage.getByRole("row", { name: new RegExp(victim.phone) });
  await expect(row).toContainText("正常");
  await row.getByRole("link", { name: "详情" }).click();
  await expect(adminPage).toHaveURL(new RegExp(`/admin/usermgr/list/${victim.uid}$`));
  await expect(adminPage.getByRole("heading", { name: `用户详情 · ${victim.phone}` })).toBeVisible();

  await adminPage.getByRole("button", { name: "封禁" }).click();
  const dialog = adminPage.getByRole("dialog", { name: "封禁用户" });
  await dialog.getByRole("button", { name: "提交" }).click();
  await expect(dialog.getByText("请输入封禁原因")).toBeVisible();
  await dialog.getByLabel("封禁原因").fill("违规使用：端口扫描");
  await dialog.getByRole("button", { name: "提交" }).click();
  const confirm = adminPage.getByRole("dialog").filter({ hasText: "封禁用户？" });
  await expect(confirm).toContainText(victim.phone);
  await confirm.getByRole("button", { name: "确认" }).click();
  await expect(adminPage.getByText("封禁用户成功")).toBeVisible();

  const profile = adminPage.locator(".user-profile-card");
  await expect(profile).toContainText("已封禁");
  await expect(profile).toContainText("违规使用：端口扫描");
  await expect(adminPage.getByRole("button", { name: "解封" })).toBeVisible();

  // The banned user's next call is refused: the ban and its reason (issue 35 §11), token dropped.
  await userPage.getByRole("menuitem", { name: "个人中心" }).click();
  await expect(userPage).toHaveURL(/\/appeal$/);
  await expect(userPage.getByText("封禁原因：违规使用：端口扫描")).toBeVisible();
  expect(await storedToken(userPage)).toBeNull();
  await expect(login(victim.phone, victim.password)).rejects.toMatchObject({ code: 30005 });

  // Unban: the user can sign in again.
  await adminPage.getByRole("button", { name: "解封" }).click();
  await adminPage.getByRole("dialog").filter({ hasText: "解封用户？" }).getByRole("button", { name: "确认" }).click();
  await expect(profile).toContainText("正常");
  await expect(login(victim.phone, victim.password)).resolves.toBeTruthy();

  await userContext.close();
  await adminContext.close();
});

test("an operator adjusts a balance in yuan and it is recorded in fen", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, await adminToken(), `/admin/usermgr/list/${user.uid}`);
  await expect(page.getByRole("heading", { name: `用户详情 · ${user.phone}` })).toBeVisible();

  await page.getByRole("button", { name: "调整余额" }).click();
  const dialog = page.getByRole("dialog", { name: "调整余额" });
  await dialog.getByLabel("金额（元）").fill("12.34");
  await dialog.getByLabel("调整原因").fill("活动奖励");
  await dialog.getByRole("button", { name: "提交" }).click();
  const confirm = page.getByRole("dialog").filter({ hasText: "调整余额？" });
  await expect(confirm).toContainText("增加余额 ¥12.34");
  await confirm.getByRole("button", { name: "确认" }).click();
  await expect(page.getByText("调整余额成功")).toBeVisible();

  expect((await userInfo(user.token)).balance).toBe(1234);
  const ledger = page.locator(".ant-card").filter({ hasText: "余额明细" });
  await expect(ledger.getByRole("row", { name: /活动奖励/ })).toContainText("+12.34");
  await expect(page.locator(".user-profile-card")).toContainText("12.34");
});

test("an operator changes a role, a nickname and a password", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, await adminToken(), `/admin/usermgr/list/${user.uid}`);

  await page.getByRole("button", { name: "修改昵称" }).click();
  let dialog = page.getByRole("dialog", { name: "修改昵称" });
  await dialog.getByLabel("昵称").fill("运营改名");
  await dialog.getByRole("button", { name: "提交" }).click();
  await page.getByRole("dialog").filter({ hasText: "修改昵称？" }).getByRole("button", { name: "确认" }).click();
  await expect(page.locator(".user-profile-card")).toContainText("运营改名");

  await page.getByRole("button", { name: "修改角色" }).click();
  dialog = page.getByRole("dialog", { name: "修改角色" });
  await dialog.getByLabel("角色").click();
  // antd's role="option" nodes are hidden a11y helpers; the visible entries carry a title.
  await page.locator(".ant-select-dropdown").getByTitle("客服").click();
  await dialog.getByRole("button", { name: "提交" }).click();
  await page.getByRole("dialog").filter({ hasText: "修改角色？" }).getByRole("button", { name: "确认" }).click();
  await expect(page.locator(".user-profile-card")).toContainText("客服");
  expect((await userInfo(user.token)).role).toBe(2);

  await page.getByRole("button", { name: "重置密码" }).click();
  dialog = page.getByRole("dialog", { name: "重置密码" });
  await dialog.getByLabel("新密码", { exact: true }).fill("by-operator-123");
  await dialog.getByLabel("确认新密码").fill("by-operator-123");
  await dialog.getByRole("button", { name: "提交" }).click();
  await page.getByRole("dialog").filter({ hasText: "重置密码？" }).getByRole("button", { name: "确认" }).click();
  await expect(page.getByText("重置密码成功")).toBeVisible();
  await expect(login(user.phone, "by-operator-123")).resolves.toBeTruthy();

  // Every change is in the audit log.
  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { name: "审计日志" })).toBeVisible();
  // Rows name their target in Chinese (用户 #uid), not by its code.
  await expect(page.getByRole("row", { name: new RegExp(`用户 #${user.uid}\\b`) }).first()).toBeVisible();
});
