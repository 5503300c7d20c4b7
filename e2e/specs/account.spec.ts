import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { ApiFailure, login, registerUser, smsCount, uniquePhone, userInfo, waitForSmsCode } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

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

test("an API token is created, shown once, lists tunnels from a script and stops working once revoked", async ({
  page,
  request,
}) => {
  const user = await registerUser();
  const tunnel = await createTunnelApi(user.token, (await localNode(user.token)).node_id, uniqueName("api-"));
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await openSignedIn(page, user.token, "/account/info");
  const card = page
    .locator(".ant-card")
    .filter({ has: page.locator(".ant-card-head-title", { hasText: /^API 令牌$/ }) });

  await card.getByRole("button", { name: "创建令牌" }).click();
  const form = page.getByRole("dialog", { name: "创建 API 令牌" });
  await form.getByLabel("名称").fill("e2e 脚本");
  await expect(form.getByRole("checkbox", { name: /tunnels:read/ })).toBeChecked();
  await form.getByRole("button", { name: "创建" }).click();

  const shown = page.getByRole("dialog", { name: "令牌已创建" });
  await expect(shown).toContainText("令牌只显示这一次");
  await shown.getByRole("button", { name: "复制令牌" }).click();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^brw_[0-9a-f]{16}_/);
  await expect(shown.getByTestId("api-token-value")).toHaveText(token);

  const bearer = { authorization: `Bearer ${token}` };
  const tunnels = await request.get("/api/user/tun", { headers: bearer });
  expect(tunnels.status()).toBe(200);
  expect((await tunnels.json()).data.list.map((t: { tun_id: number }) => t.tun_id)).toEqual([tunnel.tun_id]);
  await shown.getByRole("button", { name: "我已保存" }).click();
  await expect(shown).toBeHidden();

  const row = card.getByRole("row", { name: /e2e 脚本/ });
  await expect(row).toContainText("tunnels:read");
  await expect(row).toContainText("有效");
  await row.getByRole("button", { name: "撤销 e2e 脚本" }).click();
  await confirmPopover(page, "撤销");
  await expect(row).toContainText("已撤销");
  const refused = await request.get("/api/user/tun", { headers: bearer });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).msg).toBe("API 令牌已撤销");
});
