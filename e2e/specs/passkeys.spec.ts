import { expect, test } from "@playwright/test";
import { ADMIN, TOKEN_KEY } from "../fixtures/env";
import { type OwnServer, startOwnServer } from "../fixtures/own-server";

/*
 * Passkeys (issue 34 §1) through the real UI with Chromium's virtual authenticator: added in
 * 个人中心, then a sign-out and a sign-in with the passkey alone. Its own server: a WebAuthn RP ID
 * must be a domain name (the suite's PUBLIC_URL is 127.0.0.1), so this one is http://localhost.
 */
let server: OwnServer;
let base: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startOwnServer("passkeys", (port) => ({
    NODE_ENV: "test",
    SMS_DRIVER: "console",
    PUBLIC_URL: `http://localhost:${port}`,
  }));
  base = `http://localhost:${server.port}`;
});
test.afterAll(() => server?.stop());

test("a user adds a passkey in 个人中心, signs out, and signs in with the passkey", async ({ page }) => {
  // 20-30 s alone; the machine's load (8 engineers, 2 cores) has stretched it past 90 s.
  test.setTimeout(180_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone: ADMIN.phone, password: ADMIN.password }),
  });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  await page.goto(`${base}/login`, { timeout: 30_000 });
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
  await page.goto(`${base}/account/info`);

  const card = page.locator(".ant-card").filter({ has: page.getByText("通行密钥", { exact: true }) });
  await card.getByRole("button", { name: "添加通行密钥" }).click();
  const dialog = page.getByRole("dialog", { name: "添加通行密钥" });
  await dialog.getByLabel("名称").fill("办公室电脑");
  await dialog.getByRole("button", { name: "下一步" }).click();
  // The first WebAuthn verification loads the library into a cold server: more than the default 8 s under load.
  await expect(card.getByRole("cell", { name: "办公室电脑" })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText("从未使用")).toBeVisible();

  await page.getByRole("button", { name: `用户菜单 ${ADMIN.phone}` }).click();
  await page.getByRole("menuitem", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY)).toBeNull();

  await page.getByRole("button", { name: "使用通行密钥登录" }).click();
  await expect(page).not.toHaveURL(/\/login$/, { timeout: 30_000 });
  expect(await page.evaluate((key) => window.localStorage.getItem(key), TOKEN_KEY)).toBeTruthy();
  await page.goto(`${base}/account/info`);
  // Signed in by the passkey: its row says when it was last used.
  await expect(card.getByRole("cell", { name: "办公室电脑" })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText("从未使用")).toHaveCount(0);
});
