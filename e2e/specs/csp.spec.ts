import { MenuApi, type MenuItem } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

// Issue 19 §4: the console is served with a strict Content-Security-Policy (no inline script,
// no framing). Every page of both menus must still render, with not one violation reported.

/** Every leaf path of a menu, children included. */
const leaves = (items: MenuItem[], prefix = ""): string[] =>
  items.flatMap((i) => (i.children?.length ? leaves(i.children, prefix) : i.path ? [`${prefix}${i.path}`] : []));

async function visitAll(page: Page, token: string, paths: string[]) {
  // Each path is a full page load (the app's chunks parsed again): about 2 s on a 2-vCPU machine,
  // so the admin menu's 30 pages alone took the default 45 s.
  test.setTimeout(10_000 + paths.length * 6_000);
  const csp = await watchCsp(page);
  await openSignedIn(page, token, paths[0]);
  for (const path of paths) {
    await page.goto(path);
    await expect(sider(page)).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(page).not.toHaveURL(/\/(login|403)$/);
    await expect(page.locator(".ant-result-404, .ant-result-403, .ant-result-500")).toHaveCount(0);
    // antd's runtime styles applied (a blocked <style> would leave the menu unstyled).
    const bg = await sider(page).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg, path).not.toBe("rgba(0, 0, 0, 0)");
    expect(await csp.violations(), path).toEqual([]);
  }
  expect(csp.pageErrors).toEqual([]);
}

test("every page of the customer menu renders without a CSP violation", async ({ page }) => {
  const user = await registerUser();
  const menu = await call(MenuApi.getUserRolemenu, { token: user.token });
  const paths = leaves(menu);
  expect(paths).toContain("/dashboard");
  await visitAll(page, user.token, paths);
});

test("every page of the admin menu renders without a CSP violation", async ({ page }) => {
  const token = await adminToken();
  const menu = await call(MenuApi.getSuperRoleMenu, { token });
  const paths = leaves(menu, "/admin").filter((p) => p !== "/admin/dash");
  expect(paths.length).toBeGreaterThan(15);
  await visitAll(page, token, paths);
});

test("the sign-in, sign-up, reset and not-found pages render without a CSP violation", async ({ page }) => {
  const csp = await watchCsp(page);
  for (const path of ["/login", "/reg", "/reset", "/no/such/page"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expect(page.locator("#root")).not.toBeEmpty();
    expect(await csp.violations(), path).toEqual([]);
  }
  expect(csp.pageErrors).toEqual([]);
});

test("the sandbox gateway's page (inline style, a form) works under the CSP", async ({ page }) => {
  const user = await registerUser();
  const csp = await watchCsp(page);
  await openSignedIn(page, user.token, "/epay/recharge");
  await page.locator(".recharge-form label").filter({ hasText: /^¥30$/ }).click();
  await page.getByRole("button", { name: "立即充值 ¥30.00" }).click();
  await expect(page).toHaveURL(/\/api\/pay\/sandbox\//);
  const pay = page.getByRole("button", { name: "确认支付" });
  // Its <style> applied: the primary button is antd blue, not the browser's grey.
  expect(await pay.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(22, 119, 255)");
  expect(await csp.violations()).toEqual([]);
  await pay.click();
  await expect(page.getByText("支付成功")).toBeVisible();
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("the console is served with the security headers and cannot be framed", async ({ page, request }) => {
  const res = await request.get("/login");
  const headers = res.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).toContain("script-src 'self'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // A page that frames the console: the browser refuses the frame and says so.
  const csp = await watchCsp(page);
  await page.goto("/login");
  await page.setContent(`<iframe src="${new URL("/login", page.url()).href}"></iframe>`);
  await expect.poll(async () => (await csp.violations()).join("\n")).toContain("frame-ancestors 'none'");
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(await framed?.locator("#root").count()).not.toBe(1);
  expect(csp.pageErrors).toEqual([]);
});
