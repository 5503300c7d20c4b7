import { TicketsApi, UsermgrApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, storedToken } from "../fixtures/browser";

/**
 * A banned customer (issue 35 §11): the console and the sign-in page show the ban and its reason
 * and lead to the appeal; the appeal is opened and followed with the appeal session only, staff
 * answer it from the ticket queue, and the unban ends the appeal mode.
 */
test("a banned customer sees why, appeals, staff answer from the queue, the unban ends it", async ({
  page,
  browser,
}) => {
  // Two people and eight steps: longer than the default budget on a loaded machine.
  test.setTimeout(180_000);
  const admin = await adminToken();
  const user = await registerUser();
  const reason = "批量注册小号刷取签到流量";

  // Banned while signed in: the console's next call shows the ban and its reason, not 登录已失效.
  await openSignedIn(page, user.token, "/dashboard");
  await expect(page.getByRole("menuitem", { name: "个人中心" })).toBeVisible({ timeout: 30_000 });
  await call(UsermgrApi.patchSuperUserInfo, { token: admin, body: { uid: user.uid, status: -1, ban_reason: reason } });
  await page.reload();
  await expect(page).toHaveURL(/\/appeal$/);
  // (the message toast says it too; the page's own alert stays)
  await expect(page.locator(".ant-alert").first()).toContainText(`封禁原因：${reason}`);
  expect(await storedToken(page)).toBeNull();
  await page.getByRole("button", { name: "登录后申诉" }).click();

  // Signing in names the ban and leads to the appeal; no console session is stored.
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("手机号").fill(user.phone);
  await page.getByLabel("密码").fill(user.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page.locator(".ant-alert").first()).toContainText(`账号已被封禁：${reason}`);
  expect(await storedToken(page)).toBeNull();
  await page.getByRole("button", { name: "封禁申诉" }).click();
  await expect(page).toHaveURL(/\/appeal$/);
  await expect(page.getByText("还没有提交申诉")).toBeVisible();
  await page.getByLabel("申诉说明").fill("这些账号是家人各自注册的，请核实");
  await page.getByRole("button", { name: "提交申诉" }).click();
  await expect(page.getByText("申诉已提交，请等待客服回复")).toBeVisible();
  await expect(page.getByTestId("appeal-message")).toHaveCount(1);
  await expect(page.getByText("等待客服处理")).toBeVisible();
  // One open appeal: the form now adds to it.
  await expect(page.getByRole("button", { name: "提交申诉" })).toHaveCount(0);

  // The operator finds it in the queue as a 封禁申诉 ticket and asks for more.
  const staff = await browser.newContext();
  const op = await staff.newPage();
  const [queued] = (await call(TicketsApi.getSuperTicket, { token: admin, query: { uid: user.uid } })).list;
  expect([queued?.title, queued?.category, queued?.status]).toEqual(["账号封禁申诉", "appeal", 2]);
  await openSignedIn(op, admin, `/admin/mgr/ticket?category=appeal&uid=${user.uid}`);
  await expect(op.getByText("账号封禁申诉").first()).toBeVisible({ timeout: 30_000 });
  await op.goto(`/admin/mgr/ticket/${queued?.ticket_id}`);
  await expect(op.getByText("封禁申诉", { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  // Beside the thread: the customer is banned.
  await expect(op.getByText("已封禁").first()).toBeVisible();
  await expect(op.getByText("这些账号是家人各自注册的，请核实")).toBeVisible();
  await op.getByLabel("内容").fill("请提供家人的实名信息截图");
  await op.getByRole("button", { name: "回复并请用户补充" }).click();
  await expect(op.getByText("已回复")).toBeVisible();

  // The customer sees the reply and adds to the appeal.
  await page.reload();
  await expect(page.getByText("请提供家人的实名信息截图")).toBeVisible();
  await expect(page.getByText("待你补充")).toBeVisible();
  await page.getByLabel("补充说明").fill("截图已发到客服邮箱");
  await page.getByRole("button", { name: "发送" }).click();
  await expect(page.getByText("已补充说明")).toBeVisible();
  await expect(page.getByTestId("appeal-message")).toHaveCount(3);
  const appeal = await call(TicketsApi.getSuperTicket, { token: admin, query: { uid: user.uid, category: "appeal" } });
  expect(appeal.list.map((t) => [t.title, t.status])).toEqual([["账号封禁申诉", 2]]);

  // The operator unbans: the appeal page says so and the customer signs in to the console again.
  await call(UsermgrApi.patchSuperUserInfo, { token: admin, body: { uid: user.uid, status: 1 } });
  await page.reload();
  await expect(page.getByText("账号已解除封禁，请重新登录")).toBeVisible();
  await page.getByRole("button", { name: "重新登录" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("手机号").fill(user.phone);
  await page.getByLabel("密码").fill(user.password);
  await page.getByRole("button", { name: "登录", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await staff.close();
});
