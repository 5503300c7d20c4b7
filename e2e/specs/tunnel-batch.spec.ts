import { TunnelsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption, confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createNodeApi, createTunnelApi, levelByName, localNode, uniqueName } from "../fixtures/catalog";

test("a customer creates a tunnel with PROXY protocol, then disables two at once, moves one to another node and deletes two at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const admin = await adminToken();
  const target = uniqueName("迁移节点");
  const moved = await createNodeApi(admin, target, (await levelByName(admin, "免费版")).id);
  const user = await registerUser();
  const node = await localNode(user.token);
  const a = await createTunnelApi(user.token, node.node_id, uniqueName("a-"));
  const b = await createTunnelApi(user.token, node.node_id, uniqueName("b-"));

  // PROXY protocol on the create form, written into the tunnel's frpc.toml.
  await openSignedIn(page, user.token, "/tun/list/add");
  const name = uniqueName("pp-");
  // The first page of a fresh context loads the whole console cold: 30 s under load.
  await page.getByLabel("隧道名称").fill(name, { timeout: 30_000 });
  await chooseOption(page, page.getByLabel("节点"), "本地节点");
  await page.getByLabel("本地端口").fill("8080");
  await chooseOption(page, page.getByLabel("PROXY 协议"), "v2（二进制）");
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  await expect(page.getByText('transport.proxyProtocolVersion = "v2"')).toBeVisible();
  await expect(page.getByText("PROXY 协议 v2")).toBeVisible();

  // 批量停用: two rows selected, one call.
  await openSignedIn(page, user.token, "/tun/list");
  const row = (n: string) => page.getByRole("row", { name: new RegExp(n) });
  await row(a.tun_name)
    .getByRole("checkbox", { name: `选择 ${a.tun_name}` })
    .check();
  await row(b.tun_name)
    .getByRole("checkbox", { name: `选择 ${b.tun_name}` })
    .check();
  await expect(page.getByText("已选择 2 条隧道")).toBeVisible();
  await page.getByRole("button", { name: "批量停用" }).click();
  await expect(page.getByText("已停用 2 条隧道")).toBeVisible();
  await expect(row(a.tun_name)).toContainText("已停用");
  await expect(row(b.tun_name)).toContainText("已停用");

  // 迁移: tunnel a to the other node, its port picked there.
  await row(a.tun_name).getByRole("button", { name: "迁移" }).click();
  const dialog = page.getByRole("dialog", { name: `迁移隧道「${a.tun_name}」` });
  await chooseOption(page, dialog.getByLabel("目标节点"), `${target}（默认地区）`);
  await dialog.getByRole("button", { name: "迁移" }).click();
  await expect(page.getByText("隧道已迁移，请重新下载配置文件并重启 frpc")).toBeVisible();
  // the address is the new node's; its name is in the row's detail at this width
  await expect(row(a.tun_name)).toContainText("203.0.113.10:");
  await row(a.tun_name).getByRole("button", { name: "展开行" }).click();
  await expect(page.locator(".ant-table-expanded-row").filter({ hasText: target })).toBeVisible();
  const view = await call(TunnelsApi.getUserTunTunid, { token: user.token, params: { tunid: a.tun_id } });
  expect(view.node_id).toBe(moved.node_id);
  expect(view.addresses[0]).toMatch(/^203\.0\.113\.10:3\d{4}$/);

  // 批量删除
  await row(a.tun_name)
    .getByRole("checkbox", { name: `选择 ${a.tun_name}` })
    .check();
  await row(b.tun_name)
    .getByRole("checkbox", { name: `选择 ${b.tun_name}` })
    .check();
  await page.getByRole("button", { name: "批量删除" }).click();
  await confirmPopover(page, "删除");
  await expect(page.getByText("已删除 2 条隧道")).toBeVisible();
  await expect(row(a.tun_name)).toHaveCount(0);
  await expect(row(b.tun_name)).toHaveCount(0);
  await expect(row(name)).toHaveCount(1);
});
