import { TunnelsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createNodeApi, levelByName, uniqueName } from "../fixtures/catalog";
import { buyPlanApi, createPlanApi, uniqueTitle } from "../fixtures/store";

test("端口范围: a customer creates a tcp tunnel on ports 30500–30502 and sees the range in its detail and the list", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const admin = await adminToken();
  const nodeName = uniqueName("范围节点");
  const node = await createNodeApi(admin, nodeName, (await levelByName(admin, "免费版")).id);
  // A plan of three ports per tunnel, bought with balance the operator gave (buyPlanApi).
  const plan = await createPlanApi(admin, {
    name: uniqueTitle("范围套餐"),
    monthly_fee: 100,
    tunnel_peer_port_limit: 3,
  });
  const user = await registerUser();
  await buyPlanApi(admin, user, plan.id);

  await openSignedIn(page, user.token, `/tun/list/add?node_id=${node.node_id}`);
  await expect(page.getByRole("heading", { name: "创建隧道" })).toBeVisible({ timeout: 30_000 });
  const name = uniqueName("range-");
  await page.getByLabel("隧道名称").fill(name);
  await page.getByLabel("本地端口").fill("8000");
  await page.getByRole("checkbox", { name: "随机端口" }).uncheck();
  await page.getByLabel("远程端口").fill("30500");
  // Wider than the plan's three ports: refused with the limit's name, nothing created.
  await page.getByLabel("端口范围（结束端口）").fill("30503");
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "无法创建隧道" })).toContainText("tunnel_peer_port_limit");

  await page.getByLabel("端口范围（结束端口）").fill("30502");
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  await expect(page.locator("main")).toContainText("203.0.113.10:30500–30502");

  // The list, through the console (no second boot of a fresh page).
  await page.getByRole("link", { name: "返回列表" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("203.0.113.10:30500–30502");

  const { list } = await call(TunnelsApi.getUserTun, { token: user.token });
  expect(list.find((t) => t.tun_name === name)).toMatchObject({ remote_port: 30500, remote_port_end: 30502 });
});
