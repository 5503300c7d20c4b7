import { UsermgrApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";

test("the sidebar is built from the role menu and follows the route", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/dashboard");

  const menu = sider(page).getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "仪表盘" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "个人中心" })).toBeVisible();
  // Staff-only entries are not in a customer's menu.
  await expect(menu.getByRole("menuitem", { name: "管理后台" })).toHaveCount(0);
  await expect(menu.getByRole("menuitem", { name: "仪表盘" })).toHaveClass(/ant-menu-item-selected/);

  await menu.getByRole("menuitem", { name: "个人中心" }).click();
  await expect(page).toHaveURL(/\/account\/info$/);
  await expect(page.getByRole("heading", { name: "个人中心" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "个人中心" })).toHaveClass(/ant-menu-item-selected/);
  await expect(menu.getByRole("menuitem", { name: "仪表盘" })).not.toHaveClass(/ant-menu-item-selected/);

  // A trailing slash selects the same entry.
  await page.goto("/account/info/");
  await expect(menu.getByRole("menuitem", { name: "个人中心" })).toHaveClass(/ant-menu-item-selected/);

  // The brand logo goes to the dashboard.
  await sider(page)
    .getByRole("link", { name: /Burrow/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The user dropdown shows the phone and leads to the personal centre.
  await page.getByRole("button", { name: `用户菜单 ${user.phone}` }).click();
  await page.locator(".ant-dropdown").getByRole("menuitem", { name: "个人中心" }).click();
  await expect(page).toHaveURL(/\/account\/info$/);
});

test("menu entries and in-page navigation are real links: the address on hover, ctrl-click opens a tab, the keyboard works", async ({
  page,
  context,
}) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/dashboard");
  const menu = sider(page).getByRole("menu");

  // Every leaf of the menu is an <a href> to its page (what the status bar shows on hover).
  const nodesLink = menu.getByRole("link", { name: "节点列表" });
  await expect(nodesLink).toHaveAttribute("href", "/tun/node");

  // Ctrl+click opens the page in a new tab and leaves this one where it was.
  const opened = context.waitForEvent("page");
  await nodesLink.click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe("/tun/node");
  await tab.close();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Keyboard: focus an item and press Enter.
  await menu.getByRole("menuitem", { name: "隧道列表" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/tun\/list$/);

  // An in-page button that leads elsewhere is a link too, and a plain click stays in the app.
  const add = page.getByRole("link", { name: "创建隧道" }).first();
  await expect(add).toHaveAttribute("href", "/tun/list/add");
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  await add.click();
  await expect(page).toHaveURL(/\/tun\/list\/add$/);
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test("the sidebar collapses below 1200 px and the toggle works", async ({ page }) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 1000, height: 800 });
  await openSignedIn(page, user.token, "/dashboard");

  const toggleOpen = page.getByRole("button", { name: "展开菜单" });
  await expect(toggleOpen).toBeVisible();
  expect((await sider(page).boundingBox())?.width).toBeLessThan(100);

  await page.setViewportSize({ width: 1400, height: 900 });
  const toggleClose = page.getByRole("button", { name: "折叠菜单" });
  await expect(toggleClose).toBeVisible();
  await expect.poll(async () => (await sider(page).boundingBox())?.width).toBeGreaterThan(200);

  await toggleClose.click();
  await expect(page.getByRole("button", { name: "展开菜单" })).toBeVisible();
  await expect.poll(async () => (await sider(page).boundingBox())?.width).toBeLessThan(100);
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(page.getByRole("button", { name: "折叠菜单" })).toBeVisible();
});

test("content padding is 15px 100px, and 15px 15px on narrow screens", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/dashboard");
  const content = page.locator(".shell-content-inner");
  await expect(content).toHaveCSS("padding", "15px 100px");
  await page.setViewportSize({ width: 700, height: 900 });
  await expect(content).toHaveCSS("padding", "15px");
});

test("the content area scrolls back to the top on a route change", async ({ page }) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 1400, height: 500 });
  await openSignedIn(page, user.token, "/account/info");
  const scroller = page.locator(".shell-content");
  await expect(page.getByText("登录记录")).toBeVisible();
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);

  await sider(page).getByRole("menu").getByRole("menuitem", { name: "仪表盘" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(0);
});

test("an unknown path shows the not-found page", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByText("抱歉，您访问的页面不存在")).toBeVisible();
  await expect(page.getByText("404", { exact: true })).toBeVisible();
});

test("a customer opening the admin area gets /403", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/admin/view");
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByText("抱歉，您无权访问此页面")).toBeVisible();

  await openSignedIn(page, user.token, "/adm");
  await expect(page).toHaveURL(/\/403$/);
  await page.getByRole("link", { name: "返回控制台" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a route outside the user's menu shows /403", async ({ page }) => {
  // Support staff (role 2) may open the admin area, but the audit log is not in their menu.
  const user = await registerUser();
  await call(UsermgrApi.patchSuperUserInfo, { token: await adminToken(), body: { uid: user.uid, role: 2 } });
  await openSignedIn(page, user.token, "/admin/view");
  await expect(page.getByRole("heading", { name: "数据概览" })).toBeVisible();
  await expect(sider(page).getByRole("menuitem", { name: "审计日志" })).toHaveCount(0);

  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByText("抱歉，您无权访问此页面")).toBeVisible();
});
