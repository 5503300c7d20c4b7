import { HomeApi, OverviewApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

const unique = (p: string) => `${p}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Console errors and failed /api calls, to keep these pages clean. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.url().includes("/api/") && r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

test("an operator adds a notice and a carousel item; the customer dashboard shows them, safely", async ({
  page,
  browser,
}) => {
  const token = await adminToken();
  const csp = await watchCsp(page);
  const errors = watchErrors(page);
  await openSignedIn(page, token, "/admin/setter/main");
  await expect(page.getByRole("heading", { name: "首页内容" })).toBeVisible();

  const notice = unique("维护公告");
  await page.getByRole("button", { name: "新增内容" }).click();
  let dialog = page.getByRole("dialog", { name: "新增内容" });
  await dialog.getByLabel("标题", { exact: true }).fill(notice);
  await dialog
    .getByLabel("内容")
    .fill("今晚 **22:00** 升级 <script>window.__pwned=1</script> [详情](javascript:alert(1))");
  // An unsafe link is refused before it reaches the server.
  await dialog.getByLabel("链接").fill("javascript:alert(1)");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog.getByText("链接只能是 http(s) 地址或以 / 开头的站内路径")).toBeVisible();
  await dialog.getByLabel("链接").fill("/doc/faq");
  // The live preview renders the markdown: bold, the tag as text, the javascript: link unlinked.
  const preview = dialog.locator(".home-preview");
  await expect(preview.locator("strong", { hasText: "22:00" })).toBeVisible();
  await expect(preview.getByText("<script>window.__pwned=1</script>", { exact: false })).toBeVisible();
  await expect(preview.getByRole("link", { name: "详情" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("内容已添加")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(notice) })).toContainText("已发布");

  const slide = unique("新节点上线");
  await page.getByRole("button", { name: "新增内容" }).click();
  dialog = page.getByRole("dialog", { name: "新增内容" });
  await chooseOption(page, dialog.getByLabel("类型"), "轮播");
  await dialog.getByLabel("标题", { exact: true }).fill(slide);
  await dialog.getByLabel("内容").fill("香港节点 *限时* 开放");
  await dialog.getByLabel("链接").fill("https://example.com/news");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("内容已添加")).toBeVisible();
  expect(await csp.violations()).toEqual([]);
  expect(errors).toEqual([]);

  // The customer sees both on the dashboard, with nothing the operator typed run as script.
  const user = await registerUser();
  const home = await call(HomeApi.getUserHome, { token: user.token });
  expect(home.notices.map((n) => n.title)).toContain(notice);
  const ctx = await browser.newContext();
  const customer = await ctx.newPage();
  const customerErrors = watchErrors(customer);
  await openSignedIn(customer, user.token, "/dashboard");
  const notices = customer.locator(".home-notices");
  await expect(notices.getByRole("link", { name: notice })).toHaveAttribute("href", "/doc/faq");
  await expect(notices.locator("strong", { hasText: "22:00" })).toBeVisible();
  await expect(notices.locator("script")).toHaveCount(0);
  await expect(notices.locator('a[href^="javascript"]')).toHaveCount(0);
  const carousel = customer.locator(".home-carousel");
  await expect(carousel.getByRole("link", { name: slide }).first()).toHaveAttribute("href", "https://example.com/news");
  await expect(carousel.locator("em", { hasText: "限时" }).first()).toBeVisible();
  expect(await customer.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(customerErrors).toEqual([]);
  await ctx.close();
});

test("/doc renders the documentation with a table of contents and search", async ({ page }) => {
  const user = await registerUser();
  const errors = watchErrors(page);
  await openSignedIn(page, user.token, "/doc");
  await expect(page.getByRole("heading", { name: "快速开始", level: 2 })).toBeVisible();
  const toc = page.getByRole("navigation", { name: "文档目录" });
  await toc.getByRole("link", { name: "Docker" }).click();
  await expect(page).toHaveURL(/\/doc\/docker$/);
  await expect(page.getByRole("heading", { name: "Docker", level: 2 })).toBeVisible();

  await page.getByLabel("搜索文档").fill("systemd");
  const hits = page.getByRole("region", { name: "搜索结果" });
  await hits.getByRole("link", { name: /Linux · 作为服务运行/ }).click();
  await expect(page).toHaveURL(/\/doc\/linux#service$/);
  await expect(page.getByRole("heading", { name: "作为服务运行（systemd）" })).toBeInViewport();
  await page.getByLabel("搜索文档").fill("不存在的词语xyz");
  await expect(page.getByText("没有找到相关内容")).toBeVisible();
  expect(errors).toEqual([]);
});

test("/admin/view shows the overview's figures", async ({ page }) => {
  const token = await adminToken();
  await registerUser();
  const errors = watchErrors(page);
  await openSignedIn(page, token, "/admin/view");
  const v = await call(OverviewApi.getSuperViewInfo, { token });
  const stat = (title: string) => page.locator(".ant-statistic").filter({ hasText: title });
  await expect(stat("用户总数")).toContainText(String(v.users_total));
  await expect(stat("已封禁")).toContainText(String(v.users_banned));
  await expect(stat("在线隧道 / 隧道总数")).toContainText(`${v.tunnels.online} / ${v.tunnels.total}`);
  await expect(stat("今日营收")).toContainText(`¥${(v.revenue.today / 100).toFixed(2)}`);
  await expect(stat("本月营收")).toContainText(`¥${(v.revenue.month / 100).toFixed(2)}`);
  await expect(stat("节点 在线 / 离线 / 异常 / 下架")).toContainText(
    `${v.nodes.online} / ${v.nodes.offline} / ${v.nodes.exception} / ${v.nodes.off_shelf}`,
  );
  await expect(page.getByRole("img", { name: /近 30 天营收/ })).toBeVisible();
  await expect(page.locator(".revenue-chart canvas")).toHaveCount(1);
  // No ticket or verification module registers a counter yet: the card says so.
  await expect(page.locator(".overview-waiting")).toContainText(
    v.waiting.length ? v.waiting[0].label : "暂无待处理事项",
  );
  const attention = page.locator(".overview-attention");
  for (const n of v.nodes.attention)
    await expect(attention.getByRole("link", { name: `#${n.node_id} ${n.name}` })).toBeVisible();
  if (!v.nodes.attention.length) await expect(attention).toContainText("所有节点正常");
  expect(errors).toEqual([]);
});
