import { OidcApi } from "@burrow/contract";
import { expect as baseExpect, type Page, test } from "@playwright/test";
import { startTestOidcProvider, type TestOidcProvider } from "../../apps/server/test/oidc-provider";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser, smsCount, uniquePhone, userInfo, waitForSmsCode } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";
import { BASE_URL } from "../fixtures/env";

/*
 * Sign-in with an OpenID Connect provider: a real provider (oidc-provider) runs on loopback in
 * this worker; the operator adds it on /admin/oidc, customers sign in, bind and unbind with it.
 */

// Each step crosses two servers (redirects, discovery, token exchange): more time than a page load.
const expect = baseExpect.configure({ timeout: 20_000 });

const NAME = `测试身份${Date.now() % 10_000}`;
let op: TestOidcProvider;
let providerId = 0;

test.describe.configure({ mode: "serial", timeout: 120_000 });

test.beforeAll(async () => {
  op = await startTestOidcProvider({ redirectUri: `${BASE_URL}/callback/auth` });
});

test.afterAll(async () => {
  // Leave no button to a provider that is gone for the other specs' login pages.
  if (providerId) {
    const token = await adminToken();
    await call(OidcApi.patchSuperOidc, { token, body: { id: providerId, enabled: false } });
  }
  await op.close();
});

/** On the provider's page: signs in as `account` and allows, or refuses (account null). */
async function atProvider(page: Page, account: string | null) {
  await page.waitForURL((u) => u.origin === op.issuer);
  await expect(page.getByRole("heading", { name: "测试身份提供方" })).toBeVisible();
  if (account === null) return page.getByRole("button", { name: "拒绝" }).click();
  await page.getByLabel("账号").fill(account);
  await page.getByRole("button", { name: "允许" }).click();
}

const signInButton = (page: Page) => page.getByRole("button", { name: `使用 ${NAME} 登录` });

async function signOut(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
  await page.goto("/login");
}

test("an operator adds a provider; its secret is never shown again", async ({ page }) => {
  const csp = await watchCsp(page);
  await openSignedIn(page, await adminToken(), "/admin/oidc");
  await page.getByRole("button", { name: "新增登录方式" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("显示名称").fill(NAME);
  await dialog.getByLabel("签发者地址（Issuer）").fill(op.issuer);
  await dialog.getByLabel("Client ID").fill(op.clientId);
  await dialog.getByLabel("Client Secret").fill(op.clientSecret);
  await dialog.getByLabel("范围（scope）").fill("openid profile");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("登录方式已添加")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(NAME) });
  await expect(row).toContainText(op.issuer);
  await expect(page.locator("body")).not.toContainText(op.clientSecret);
  const list = await call(OidcApi.getSuperOidc, { token: await adminToken() });
  providerId = list.find((p) => p.name === NAME)?.id ?? 0;
  expect(providerId).toBeGreaterThan(0);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("a first sign-in creates an account that binds a phone before buying", async ({ page }) => {
  // The flow is top-level navigation: the strict CSP needs no change for it.
  const csp = await watchCsp(page);
  await page.goto("/login");
  await signInButton(page).click();
  await atProvider(page, `new-${Date.now()}`);
  await page.waitForURL(/\/callback\/auth/);
  await expect(page.getByText("该第三方账号尚未绑定控制台账号")).toBeVisible();
  await page.getByRole("button", { name: "创建新账号" }).click();
  await page.waitForURL(/\/dashboard/);
  const token = await storedToken(page);
  expect(token).toBeTruthy();
  expect((await userInfo(token ?? "")).phone_bound).toBe(false);

  await page.goto("/account/info");
  await expect(page.getByText("账号尚未绑定手机号：绑定后才能购买套餐和创建隧道。")).toBeVisible();
  const phone = uniquePhone();
  const card = page.locator(".ant-card").filter({ hasText: "账号尚未绑定手机号" });
  await card.getByLabel("手机号").fill(phone);
  const before = smsCount(phone);
  await card.getByRole("button", { name: "获取验证码" }).click();
  await card.getByLabel("验证码").fill(await waitForSmsCode(phone, before));
  await card.getByRole("button", { name: "绑定手机号" }).click();
  await expect(page.getByText("手机号已绑定")).toBeVisible();
  expect((await userInfo(token ?? "")).personal_info.phone_number).toBe(phone);
  await expect(page.getByRole("cell", { name: `第三方：${NAME}` }).first()).toBeVisible();
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("a first sign-in links to an existing account after proving its phone by SMS", async ({ page }) => {
  const user = await registerUser();
  await page.goto("/login");
  await signInButton(page).click();
  await atProvider(page, `link-${Date.now()}`);
  await expect(page.getByText("该第三方账号尚未绑定控制台账号")).toBeVisible();
  await page.getByLabel("手机号").fill(user.phone);
  const before = smsCount(user.phone);
  await page.getByRole("button", { name: "获取验证码" }).click();
  await page.getByLabel("验证码").fill(await waitForSmsCode(user.phone, before));
  await page.getByRole("button", { name: "绑定并登录" }).click();
  await page.waitForURL(/\/dashboard/);
  expect((await userInfo((await storedToken(page)) ?? "")).uid).toBe(user.uid);
});

test("a customer binds from the personal centre, signs in with it, unbinds", async ({ page }) => {
  const user = await registerUser();
  const account = `bind-${Date.now()}`;
  await openSignedIn(page, user.token, "/account/info");
  const card = page.locator(".ant-card").filter({ hasText: "第三方账号" });
  await card.getByRole("listitem").filter({ hasText: NAME }).getByRole("button", { name: "绑定" }).click();
  await atProvider(page, account);
  await page.waitForURL(/\/account\/info/);
  await expect(page.getByText(`已绑定 ${NAME}`)).toBeVisible();
  await expect(card).toContainText(`${NAME}绑定于`, { timeout: 20_000 });

  // Sign in again with the provider (it remembers the account): the same customer.
  await signOut(page);
  await signInButton(page).click();
  await page.waitForURL(/\/dashboard/);
  expect((await userInfo((await storedToken(page)) ?? "")).uid).toBe(user.uid);

  await page.goto("/account/info");
  await card.getByRole("listitem").filter({ hasText: NAME }).getByRole("button", { name: "解绑" }).click();
  await confirmPopover(page, "解绑");
  await expect(page.getByText("已解绑")).toBeVisible();
  await expect(card).toContainText(`${NAME}未绑定`, { timeout: 20_000 });

  // Unbound: the same provider account now finds no console account.
  await signOut(page);
  await signInButton(page).click();
  await page.waitForURL(/\/callback\/auth/);
  await expect(page.getByText("该第三方账号尚未绑定控制台账号")).toBeVisible();
});

test("a tampered state is refused and lands on /login with a message", async ({ page }) => {
  await page.goto("/login");
  const authorize = page.waitForRequest((r) => r.url().startsWith(`${op.issuer}/auth?`));
  await signInButton(page).click();
  const state = new URL((await authorize).url()).searchParams.get("state") ?? "";
  expect(state).not.toBe("");
  await atProvider(page, `tamper-${Date.now()}`);
  // The genuine answer is taken first (a new provider account: the link-or-create choice).
  await expect(page.getByText("该第三方账号尚未绑定控制台账号")).toBeVisible();
  // The provider's answer with one character of the state changed: refused, no session.
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(`/callback/auth?code=forged-code&state=${encodeURIComponent(`${state}x`)}`);
  await page.waitForURL(/\/login$/);
  await expect(page.getByRole("alert")).toContainText("登录请求无效或已过期");
  expect(await storedToken(page)).toBeNull();
  // And the real state, already answered once, is refused as well.
  await page.goto(`/callback/auth?code=forged-code&state=${encodeURIComponent(state)}`);
  await page.waitForURL(/\/login$/);
  await expect(page.getByRole("alert")).toContainText("登录请求无效或已过期");
});

test("the provider's refusal is explained on /login", async ({ page }) => {
  await page.goto("/login");
  await signInButton(page).click();
  await atProvider(page, null);
  await page.waitForURL(/\/login$/);
  await expect(page.getByRole("alert")).toContainText("你已取消授权，第三方登录未完成");
});
