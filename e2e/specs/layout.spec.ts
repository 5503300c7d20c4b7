import { expect, type Page, test } from "@playwright/test";
import { adminToken, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";

test("the links under the sign-in form look like the form's antd links", async ({ page }) => {
  await page.goto("/login");
  for (const name of ["注册账号", "忘记密码？"]) {
    // Plain links on /login's light path (no antd Typography there), in the theme's link colour.
    const link = page.getByRole("link", { name });
    await expect(link).toHaveCSS("color", "rgb(22, 104, 220)");
    await expect(link).toHaveCSS("text-decoration-line", "none");
  }
  await page.getByRole("link", { name: "注册账号" }).click();
  await expect(page).toHaveURL(/\/reg$/);
});

/** The phone drawer's menu (a navigation landmark inside antd's Drawer). */
const drawerMenu = (page: Page) => page.getByRole("navigation", { name: "侧边菜单" });

/** Whether the page scrolls sideways (anything wider than the window). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

test("on a phone (390×844) the menu opens over the page as a drawer and closes after a navigation", async ({
  page,
}) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, user.token, "/dashboard");
  const content = page.locator(".shell-content");
  // The greeting (other specs' announcements are level-4 headings too).
  const greeting = page.getByRole("heading", { level: 4, name: new RegExp(`用户${user.phone.slice(-4)}$`) });
  await expect(greeting).toBeVisible();
  // No inline sider: the page has the whole width, and the greeting is not squeezed to a column.
  await expect(sider(page)).toHaveCount(0);
  expect((await content.boundingBox())?.width).toBeGreaterThan(380);
  expect((await greeting.boundingBox())?.width).toBeGreaterThan(200);
  expect(await scrollsSideways(page)).toBe(false);

  const toggle = page.getByRole("button", { name: "展开菜单" });
  await toggle.click();
  const menu = drawerMenu(page);
  await expect(menu).toBeVisible();
  // Over the page, not beside it: the content keeps its width, the drawer leaves the mask visible.
  await expect.poll(async () => Math.round((await menu.boundingBox())?.x ?? -1)).toBe(0); // slid in from the left
  expect((await menu.boundingBox())?.width).toBeLessThan(300);
  expect((await content.boundingBox())?.width).toBeGreaterThan(380);
  await expect(menu.getByRole("menuitem", { name: "我的订单" })).toBeVisible();

  // A tap on an item goes there and closes the drawer.
  await menu.getByRole("menuitem", { name: "隧道列表" }).click();
  await expect(page).toHaveURL(/\/tun\/list$/);
  await expect(menu).toBeHidden();
  expect(await scrollsSideways(page)).toBe(false);

  // A tap on the page already open closes it too; so do the mask and Escape.
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await menu.getByRole("menuitem", { name: "隧道列表" }).click();
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await page.mouse.click(370, 400);
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  // Submenus open inside the drawer; their pages close it as well (the admin menu's 订单 group).
  const admin = await adminToken();
  await openSignedIn(page, admin, "/admin/view");
  await page.getByRole("button", { name: "展开菜单" }).click();
  await drawerMenu(page).getByRole("menuitem", { name: "订单", exact: true }).click();
  await drawerMenu(page).getByRole("menuitem", { name: "订单管理" }).click();
  await expect(page).toHaveURL(/\/admin\/order$/);
  await expect(drawerMenu(page)).toBeHidden();
});

test("at 1366×768 the menu stays the inline sider, open beside the page after a navigation", async ({ page }) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, user.token, "/dashboard");
  await expect(sider(page)).toBeVisible();
  expect((await sider(page).boundingBox())?.width).toBe(220);
  expect((await page.locator(".shell-content").boundingBox())?.x).toBe(220);
  await sider(page).getByRole("menuitem", { name: "我的订单" }).click();
  await expect(page).toHaveURL(/\/epay\/order$/);
  await expect(sider(page)).toBeVisible();
  expect((await sider(page).boundingBox())?.width).toBe(220);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
