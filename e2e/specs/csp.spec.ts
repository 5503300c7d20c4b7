import { expect, test } from "@playwright/test";
import { registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

// Issue 19 §4: the console is served with a strict Content-Security-Policy (no inline script,
// no framing). Every page of both menus must still render, with not one violation reported: that
// walk is menu-pages.spec.ts, made on the same page loads as the layout checks at every viewport.

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
