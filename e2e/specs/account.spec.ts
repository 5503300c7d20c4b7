import { expect, test } from "@playwright/test";
import { ApiFailure, login, registerUser, smsCount, uniquePhone, userInfo, waitForSmsCode } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";

test("the personal centre saves a new nickname", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/account/info");

  const nickname = page.getByLabel("昵称");
  await nickname.fill("");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("请输入昵称")).toBeVisible();

  await nickname.fill("隧道工程师");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("昵称已保存")).toBeVisible();
  expect((await userInfo(user.token)).nickname).toBe("隧道工程师");

  await page.getByRole("menuitem", { name: "仪表盘" }).click();
  await expect(page.getByRole("heading", { name: /隧道工程师/ })).toBeVisible();
});

test("the frp access token is masked, can be shown and reset after confirmation", async ({ page }) => {
  const user = await registerUser();
  const before = (await userInfo(user.token)).frp_token;
  await openSignedIn(page, user.token, "/account/info");

  const token = page.getByTestId("frp-token");
  await expect(token).toContainText("••••");
  await expect(token).not.toHaveText(before);
  await page.getByRole("button", { name: "显示密钥" }).click();
  await expect(token).toHaveText(before);
  await page.getByRole("button", { name: "隐藏密钥" }).click();
  await expect(token).toContainText("••••");

  await page.getByRole("button", { name: "重置密钥" }).click();
  const confirm = page.locator(".ant-popconfirm");
  await expect(confirm).toContainText("重置访问密钥？");
  await confirm.getByRole("button", { name: "重置" }).click();
  await expect(page.getByText("访问密钥已重置，请更新 frpc 配置")).toBeVisible();

  const after = (await userInfo(user.token)).frp_token;
  expect(after).not.toBe(before);
  await expect(token).toHaveText(after);
});

test("changing the password signs the user out everywhere", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/account/info");

  await page.getByLabel("当前密码").fill("not-my-password");
  await page.getByLabel("新密码", { exact: true }).fill("changed-pass-789");
  await page.getByLabel("确认新密码").fill("changed-pass-789");
  await page.getByRole("button", { name: "修改密码" }).click();
  await expect(page.getByText("原密码错误")).toBeVisible();

  await page.getByLabel("当前密码").fill(user.password);
  await page.getByRole("button", { name: "修改密码" }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText("密码已修改，请使用新密码重新登录")).toBeVisible();
  expect(await storedToken(page)).toBeNull();
  await expect(userInfo(user.token)).rejects.toBeInstanceOf(ApiFailure);
  await expect(login(user.phone, user.password)).rejects.toBeInstanceOf(ApiFailure);
  await expect(login(user.phone, "changed-pass-789")).resolves.toBeTruthy();
});

test("the sign-in phone can be changed with a code sent to the new number", async ({ page }) => {
  const user = await registerUser();
  const newPhone = uniquePhone();
  await openSignedIn(page, user.token, "/account/info");

  await page.getByLabel("新手机号").fill(newPhone);
  const before = smsCount(newPhone);
  await page.getByRole("button", { name: "获取验证码" }).click();
  const code = await waitForSmsCode(newPhone, before);
  await page.getByLabel("验证码").fill(code);
  await page.getByRole("button", { name: "更换手机号" }).click();

  await expect(page.getByText("手机号已更换")).toBeVisible();
  await expect(page.getByRole("button", { name: `用户菜单 ${newPhone}` })).toBeVisible();
  await expect(login(newPhone, user.password)).resolves.toBeTruthy();
});

test("the login history lists the user's sign-ins", async ({ page }) => {
  const user = await registerUser();
  await login(user.phone, user.password);
  await openSignedIn(page, user.token, "/account/info");
  const history = page.locator(".ant-card").filter({ hasText: "登录记录" });
  await expect(history.getByRole("columnheader", { name: "IP" })).toBeVisible();
  await expect(history.getByText(/共 \d+ 条/)).toBeVisible();
  await expect(history.getByRole("row")).not.toHaveCount(1);
});
