import { TunnelsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createNodeApi, createTunnelApi, levelByName, localNode, uniqueName } from "../fixtures/catalog";

test("a customer sees only the nodes their plan's level allows", async ({ page }) => {
  const admin = await adminToken();
  const free = uniqueName("免费节点");
  const pro = uniqueName("专业节点");
  await createNodeApi(admin, free, (await levelByName(admin, "免费版")).id);
  await createNodeApi(admin, pro, (await levelByName(admin, "专业版")).id);
  const user = await registerUser();

  await openSignedIn(page, user.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "节点列表" }).click();
  await expect(page).toHaveURL(/\/tun\/node$/);
  await expect(page.getByRole("heading", { name: "节点列表" })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(free) });
  await expect(row).toContainText("默认地区");
  await expect(row).toContainText("30000-31000");
  await expect(row).toContainText("TCP");
  await expect(page.getByRole("row", { name: /本地节点/ })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(pro) })).toHaveCount(0);

  // The operator sees both.
  await openSignedIn(page, admin, `/admin/node?name=${encodeURIComponent(pro)}`);
  await expect(page.getByRole("row", { name: new RegExp(pro) })).toContainText("专业版");
});

test("a customer turns a tunnel off and deletes it", async ({ page }) => {
  const user = await registerUser();
  const node = await localNode(user.token);
  const name = uniqueName("web-");
  const tunnel = await createTunnelApi(user.token, node.node_id, name);

  await openSignedIn(page, user.token, "/tun/list");
  await expect(page.getByRole("heading", { name: "隧道列表" })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("离线");
  await expect(row).toContainText(`127.0.0.1:${tunnel.remote_port}`);

  await row.getByRole("switch", { name: `启用 ${name}` }).click();
  await expect(page.getByText(`隧道「${name}」已停用`)).toBeVisible();
  await expect(row).toContainText("已停用");

  await row.getByRole("button", { name: "删除" }).click();
  await confirmPopover(page, "删除");
  await expect(page.getByText("隧道已删除")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  const left = await call(TunnelsApi.getUserTun, { token: user.token });
  expect(left.total).toBe(0);
});

test("creating a tunnel reports a taken port on its field and a used name on the name field", async ({ page }) => {
  const user = await registerUser();
  const other = await registerUser();
  const node = await localNode(user.token);
  const taken = await createTunnelApi(other.token, node.node_id, uniqueName("other-"));
  const mine = await createTunnelApi(user.token, node.node_id, uniqueName("mine-"));

  await openSignedIn(page, user.token, "/tun/list/add");
  await expect(page.getByRole("heading", { name: "创建隧道" })).toBeVisible();
  await page.getByLabel("隧道名称").fill(uniqueName("new-"));
  await page.getByLabel("节点").click();
  await page.locator(".ant-select-dropdown").filter({ visible: true }).getByTitle("本地节点").click();
  await page.getByLabel("本地端口").fill("8080");
  await page.getByRole("checkbox", { name: "随机端口" }).uncheck();
  await page.getByLabel("远程端口").fill(String(taken.remote_port));
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page.getByText(`端口 ${taken.remote_port} 已被占用`)).toBeVisible();

  await page.getByRole("checkbox", { name: "随机端口" }).check();
  await page.getByLabel("隧道名称").fill(mine.tun_name);
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page.getByText("隧道名称已存在")).toBeVisible();

  await page.getByLabel("隧道名称").fill(uniqueName("ok-"));
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  await expect(page.getByText("隧道已创建")).toBeVisible();
});

test("a refused tunnel names the plan limit it hit", async ({ page }) => {
  const user = await registerUser();
  const node = await localNode(user.token);
  // The default plan allows three tunnels.
  for (let i = 0; i < 3; i++) await createTunnelApi(user.token, node.node_id, uniqueName(`t${i}-`));

  await openSignedIn(page, user.token, `/tun/list/add?node_id=${node.node_id}`);
  await page.getByLabel("隧道名称").fill(uniqueName("fourth-"));
  await expect(page.getByLabel("节点")).toBeVisible();
  await page.getByLabel("本地端口").fill("3389");
  await page.getByRole("button", { name: "创建隧道" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "无法创建隧道" });
  await expect(alert).toContainText("隧道数量上限 3 条");
  await expect(alert.getByRole("link", { name: "升级套餐" })).toHaveAttribute("href", "/purchase/plan");
  await expect(page).toHaveURL(/\/tun\/list\/add/);
});
