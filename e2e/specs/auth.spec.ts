import { expect, test } from "@playwright/test";
import { login, registerUser, smsCount, uniquePhone, userInfo, waitForSmsCode } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";

test("the root path goes to /login, which shows the filing footer", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "登录" })).toBeVisible();

  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText("云计算能力由 Burrow Cloud 提供");
  await expect(footer).toContainText("公安备案号");
  await expect(footer).toContainText("ICP 备案号");
  await expect(footer).toContainText("增值电信业务经营许可证");
  await expect(footer).toContainText(`© 2024–${new Date().getFullYear()} Burrow`);
  await expect(footer).toHaveCSS("font-size", "12px");

  const container = page.locator(".public-container");
  expect((await container.boundingBox())?.width).toBe(900);
});

test("a new customer signs up with an SMS code and lands on the dashboard", async ({ page }) => {
  const phone = uniquePhone();
  await page.goto("/reg?invite=");
  await page.getByLabel("手机号").fill(phone);

  const before = smsCount(phone);
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByRole("button", { name: /秒后重新获取/ })).toBeDisabled();
  const code = await waitForSmsCode(phone, before);

  await page.getByLabel("验证码").fill(code);
  await page.getByLabel("密码", { exact: true }).fill("short");
  await page.getByLabel("确认密码").fill("different");
  await page.getByRole("button", { name: "注册" }).click();
  await expect(page.getByText("密码长度为 8-64 位")).toBeVisible();
  await expect(page.getByText("两次输入的密码不一致")).toBeVisible();

  await page.getByLabel("密码", { exact: true }).fill("signup-pass-123");
  await page.getByLabel("确认密码").fill("signup-pass-123");
  await page.getByRole("button", { name: "注册" }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: `用户${phone.slice(-4)}`, exact: false })).toBeVisible();
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect((await userInfo(token ?? "")).personal_info.phone_number).toBe(phone);
});

test("a customer signs in; public pages then send them to the dashboard", async ({ page }) => {
  const user = await registerUser();
  await page.goto("/login");
  await page.getByLabel("手机号").fill(user.phone);
  await page.getByLabel("密码").fill("wrong-password");
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page.getByText("手机号或密码错误")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel("密码").fill(user.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("账户余额（元）")).toBeVisible();

  for (const path of ["/login", "/reg", "/reset"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
});

test("a customer resets a forgotten password", async ({ page }) => {
  const user = await registerUser();
  await page.goto("/login");
  await page.getByRole("link", { name: "忘记密码？" }).click();
  await expect(page).toHaveURL(/\/reset$/);
  // The URL changes before the lazy page renders: filling earlier could hit /login's phone field.
  await expect(page.getByRole("heading", { name: "重置密码" })).toBeVisible();

  await page.getByLabel("手机号").fill(user.phone);
  const before = smsCount(user.phone);
  await page.getByRole("button", { name: "获取验证码" }).click();
  const code = await waitForSmsCode(user.phone, before);
  await page.getByLabel("验证码").fill(code);
  await page.getByLabel("新密码", { exact: true }).fill("reset-pass-456");
  await page.getByLabel("确认新密码").fill("reset-pass-456");
  await page.getByRole("button", { name: "重置密码" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("密码已重置，请使用新密码登录")).toBeVisible();
  await expect(login(user.phone, "reset-pass-456")).resolves.toBeTruthy();
});

test("logging out calls the server, drops the token and shows /login", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token);
  await expect(page.getByText("账户余额（元）")).toBeVisible();

  await page.getByRole("button", { name: `用户菜单 ${user.phone}` }).click();
  await page.getByRole("menuitem", { name: "退出登录" }).click();

  await expect(page).toHaveURL(/\/login$/);
  expect(await storedToken(page)).toBeNull();
  // The session is revoked on the server too.
  await expect(userInfo(user.token)).rejects.toMatchObject({ code: 30003 });
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("an expired or invalid token sends the user to /login and is dropped", async ({ page }) => {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const expired = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ sub: "1", sid: "x", exp: 1_600_000_000 })}.c2lnbmF0dXJl`;
  for (const token of [expired, "garbage"]) {
    await openSignedIn(page, token, "/account/info");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "登录" })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  }
});
