import { expect, test } from "@playwright/test";
import { totpCode } from "../../apps/server/src/modules/auth/totp";
import { registerUser } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";

// Two-factor sign-in (issue 34 §1) through the real UI: enabled in 个人中心 with the secret the page
// shows, then a sign-out and a sign-in that asks for the code.

test("a customer enables TOTP in 个人中心, signs out, and signs in with the code", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/account/info");

  const card = page.locator(".ant-card").filter({ has: page.getByText("两步验证", { exact: true }) });
  await card.getByRole("button", { name: "启用两步验证" }).click();
  const dialog = page.getByRole("dialog", { name: "启用两步验证" });
  await expect(dialog.locator("canvas, svg").first()).toBeVisible();
  const secret = (await dialog.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel("验证器上的 6 位验证码").fill(totpCode(secret));
  await dialog.getByRole("button", { name: "确认" }).click();

  const codes = page.getByRole("dialog", { name: "恢复码" }).getByTestId("recovery-codes").locator("li");
  await expect(codes).toHaveCount(10);
  await page.getByRole("button", { name: "我已保存" }).click();
  await expect(card.getByText("已启用")).toBeVisible();
  await expect(card).toContainText("剩余恢复码 10 个");
  // The session list marks this browser.
  await expect(page.locator(".ant-card").filter({ hasText: "登录设备" }).getByText("当前设备")).toBeVisible();

  await page.getByRole("button", { name: `用户菜单 ${user.phone}` }).click();
  await page.getByRole("menuitem", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("手机号").fill(user.phone);
  await page.getByLabel("密码").fill(user.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page.getByRole("heading", { name: "两步验证" })).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  // The code of the next step: the one confirmed above is spent, and ±1 step is accepted.
  await page.getByLabel("两步验证码").fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "验证并登录" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await storedToken(page)).toBeTruthy();
});
