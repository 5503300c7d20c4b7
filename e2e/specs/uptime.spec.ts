import { UptimeApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption, confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

test("a customer sees the uptime bars, publishes the status page and opens it logged out; an operator announces maintenance on /status", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const user = await registerUser();
  const node = await localNode(user.token);
  const name = uniqueName("up-");
  const tunnel = await createTunnelApi(user.token, node.node_id, name);

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  // The first page of a fresh context loads the whole console cold: 30 s under load.
  await expect(page.getByText("可用性", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("[data-day]")).toHaveCount(90);
  await page.getByRole("switch", { name: "公开状态页" }).click();
  await expect(page.getByText("公开状态页已开启")).toBeVisible();
  const link = page.getByTestId("public-status-link");
  const url = (await link.textContent()) ?? "";
  expect(url).toMatch(/\/status\/t\/[A-Za-z0-9_-]{24}$/);

  // Logged out: a fresh context with no token.
  const anon = await browser.newContext();
  const pub = await anon.newPage();
  await pub.goto(url, { timeout: 30_000 });
  await expect(pub.getByText(`${name} 的运行状态`)).toBeVisible({ timeout: 30_000 });
  await expect(pub.getByTestId("public-online")).toHaveText("离线");
  await expect(pub.locator("[data-day]")).toHaveCount(90);
  await expect(pub.getByText("127.0.0.1")).toHaveCount(0);
  const badge = await pub.request.get(`${url}/badge.svg`);
  expect(badge.headers()["content-type"]).toContain("image/svg+xml");
  expect(await badge.text()).toContain("离线");

  // Turned off: the page is gone.
  await page.getByRole("switch", { name: "公开状态页" }).click();
  await expect(page.getByText("公开状态页已关闭")).toBeVisible();
  await pub.reload();
  await expect(pub.locator(".ant-result-title")).toHaveText("状态页不存在");

  // An operator announces maintenance on the node; the provider status page shows it.
  const title = uniqueName("维护-");
  await openSignedIn(page, await adminToken(), "/admin/maintenance");
  await page.getByRole("button", { name: "发布维护" }).click({ timeout: 30_000 });
  const form = page.getByRole("dialog", { name: "发布维护" });
  await form.getByLabel("标题").fill(title);
  const [from, to] = [form.locator(".ant-picker-input input").nth(0), form.locator(".ant-picker-input input").nth(1)];
  await from.click();
  await from.fill("2030-01-01 10:00:00");
  await from.press("Enter");
  await to.fill("2030-01-01 12:00:00");
  await to.press("Enter");
  await chooseOption(page, form.getByLabel("节点"), "本地节点");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("维护已发布")).toBeVisible();
  const row = page.locator(".ant-table-row").filter({ hasText: title });
  await expect(row).toContainText("2030-01-01 10:00:00");

  await pub.goto("/status");
  await expect(pub.getByText(`计划维护：${title}`)).toBeVisible({ timeout: 30_000 });
  await expect(pub.getByText("本地节点").first()).toBeVisible();

  await row.getByRole("button", { name: "取消维护" }).click();
  await confirmPopover(page, "确认取消");
  await expect(page.getByText("维护计划已取消")).toBeVisible();
  const status = await call(UptimeApi.getStatus, {});
  expect(status.maintenance.map((m) => m.title)).not.toContain(title);
  await anon.close();
});
