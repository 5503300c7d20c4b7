import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

/**
 * The frpc assistant (/aipage). The suite's server talks to a local chat-completions server
 * (apps/server/test/fake-chat.ts, started by global-setup.ts) that streams its answer in pieces,
 * 400 ms apart; the not-configured case is in the API tests (modules/assistant).
 */
test("a customer asks the assistant, watches the answer stream in, gets a pasted frpc log explained and deletes the conversation", async ({
  page,
}) => {
  // Two streamed answers of a few seconds each on top of the page loads.
  test.slow();
  const csp = await watchCsp(page);
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const user = await registerUser();
  await openSignedIn(page, user.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "frpc 助手" }).click();
  await expect(page).toHaveURL(/\/aipage$/);
  await expect(page.getByRole("heading", { name: "frpc 助手" })).toBeVisible();
  await expect(page.getByText("今日剩余 1000 次")).toBeVisible();

  // A question: the answer appears piece by piece (partial first, then whole).
  const input = page.getByLabel("提问");
  await input.fill("怎么在 Linux 上安装 frpc？");
  await page.getByRole("button", { name: "发送" }).click();
  const answer = page.getByTestId("assistant-assistant").last();
  await expect(answer).toContainText("您好！");
  await expect(answer).not.toContainText("下载配置文件");
  await expect(answer).toContainText("您好！关于「怎么在 Linux 上安装 frpc？」：请先在隧道列表下载配置文件");
  // The stored conversation replaces the streamed one; the console path in the answer is a link.
  await expect(page.getByLabel("正在回答")).toHaveCount(0);
  await expect(answer.getByRole("link", { name: "/tun/list" })).toBeVisible();
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(1);
  await expect(page.getByText("今日剩余 999 次")).toBeVisible();

  // A pasted frpc log line: the rule table explains it with the console page that fixes it.
  await input.fill(
    "2026-11-24 10:00:00.000 [W] [client/service.go:322] connect to server error: token in login doesn't match token from configuration",
  );
  await page.keyboard.press("Control+Enter");
  const explained = page.getByTestId("log-explanations").last();
  await expect(explained).toContainText("访问令牌不匹配");
  await expect(explained).toContainText("重新下载配置文件");
  await expect(page.getByLabel("正在回答")).toHaveCount(0);
  await expect(page.getByTestId("assistant-assistant")).toHaveCount(2);
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath("aipage.png"), fullPage: true });
  await explained.getByRole("link", { name: "去处理：隧道列表" }).click();
  await expect(page).toHaveURL(/\/tun\/list$/);
  await expect(page.getByRole("heading", { name: "隧道列表" })).toBeVisible();

  // Back on the page, the conversation is kept; deleting it empties the list.
  await page.goBack();
  await expect(page).toHaveURL(/\/aipage$/);
  const conv = page.getByTestId("assistant-conversation");
  await expect(conv).toHaveCount(1);
  await conv.getByRole("button", { name: /^删除对话/ }).click();
  await confirmPopover(page, "删除");
  await expect(page.getByText("对话已删除")).toBeVisible();
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(0);
  await expect(page.getByText("还没有对话")).toBeVisible();
  // The stream went through the page's CSP (connect-src 'self') without a violation or an error.
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("without an AI endpoint the page says so and still explains a pasted frpc log offline", async ({ page }) => {
  // The suite's server has an endpoint; this customer's page is told it has none (the server side
  // of the unconfigured case is in modules/assistant/assistant.routes.test.ts). The log reading
  // below is the real server's rule table.
  await page.route("**/api/user/assistant/status", (route) =>
    route.fulfill({
      json: { code: "SUCCESS", msg: "ok", data: { configured: false, daily_limit: 30, used_today: 0 } },
    }),
  );
  const user = await registerUser();
  await openSignedIn(page, user.token, "/aipage");
  // The first load of the app's chunks can be slow on a busy test machine.
  await expect(page.getByText("AI 助手未配置")).toBeVisible({ timeout: 30_000 });
  await page
    .getByLabel("提问")
    .fill("2026-11-24 10:00:00.000 [W] [client/control.go:163] [t_7] start error: port already used");
  await page.getByRole("button", { name: "解读日志" }).click();
  const explained = page.getByTestId("log-explanations");
  await expect(explained).toContainText("远程端口已被占用");
  await expect(explained.getByRole("link", { name: "去处理：隧道 t_7" })).toHaveAttribute("href", "/tun/list/7");
  await page.screenshot({ path: test.info().outputPath("aipage-offline.png"), fullPage: true });
  await expect(page.getByTestId("assistant-conversation")).toHaveCount(0);
});
