import { TunnelsApi, UsersApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createNodeApi, createTunnelApi, levelByName, localNode, uniqueName } from "../fixtures/catalog";
import { BASE_URL } from "../fixtures/env";

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
  await expect(page.getByRole("row", { name: /本地节点/ })).toBeVisible();
  // found by name: the other journeys' nodes page the list past its first ten
  const findNode = async (name: string) => {
    await page.getByLabel("节点名称").fill(name);
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(new RegExp(`name=${encodeURIComponent(name)}`));
  };
  await findNode(free);
  const row = page.getByRole("row", { name: new RegExp(free) });
  await expect(row).toContainText("默认地区");
  await expect(row).toContainText("30000-31000");
  await expect(row).toContainText("TCP");
  await findNode(pro);
  await expect(page.getByRole("row", { name: new RegExp(pro) })).toHaveCount(0);
  await expect(page.getByText("暂无可用节点，请先购买或续费套餐")).toBeVisible();

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

test("连接诊断 shows what frpc was told, with its fix, and 强制下线 frees the session holding the tunnel", async ({
  page,
}) => {
  const admin = await adminToken();
  const node = await createNodeApi(admin, uniqueName("诊断节点"), (await levelByName(admin, "免费版")).id);
  const user = await registerUser();
  const { frp_token } = await call(UsersApi.getUserUserInfo, { token: user.token });
  const tunnel = await createTunnelApi(user.token, node.node_id, uniqueName("ssh-"));
  /** a plugin call exactly as frps posts it */
  const plugin = async (op: string, content: object) => {
    const res = await fetch(`${BASE_URL}/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=${op}&version=0.1.0`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ version: "0.1.0", op, content }),
    });
    return (await res.json()) as { reject: boolean; reject_reason?: string };
  };
  const who = (runId: string) => ({ user: `u_${user.uid}`, metas: { token: frp_token }, run_id: runId });
  const proxy = (runId: string, port = tunnel.remote_port) => ({
    user: who(runId),
    proxy_name: `u_${user.uid}.t_${tunnel.tun_id}`,
    proxy_type: "tcp",
    remote_port: port,
  });
  const login = {
    version: "0.61.1",
    user: `u_${user.uid}`,
    metas: { token: frp_token },
    run_id: "",
    client_address: "203.0.113.7:5000",
  };
  expect((await plugin("Login", login)).reject).toBe(false);
  expect((await plugin("NewProxy", proxy("e2eholder0000001"))).reject).toBe(false);
  const wrong = (tunnel.remote_port ?? 0) + 1;
  expect((await plugin("NewProxy", proxy("e2eholder0000001", wrong))).reject).toBe(true);
  // a second frpc while the first holds the proxy (frps refuses it as a duplicate)
  expect((await plugin("NewProxy", proxy("e2enewcomer00002"))).reject).toBe(false);

  // Written behind the plugin within a second or so.
  await expect
    .poll(
      async () =>
        (await call(TunnelsApi.getUserTunTunidEvents, { token: user.token, params: { tunid: tunnel.tun_id } })).list
          .length,
      { timeout: 15_000 },
    )
    .toBe(4);
  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  const doctor = page.locator(".tunnel-doctor-card");
  await expect(doctor.getByText("被另一会话占用", { exact: false })).toBeVisible({ timeout: 30_000 });
  const refusedRow = doctor.getByRole("row", {
    name: new RegExp(`远程端口应为 ${tunnel.remote_port}（配置为 ${wrong}）`),
  });
  await expect(refusedRow.getByRole("button", { name: "重新下载配置" })).toBeVisible();
  await expect(doctor.getByRole("row", { name: /登录成功（frpc 0\.61\.1，203\.0\.113\.7）/ })).toBeVisible();
  const held = doctor.getByRole("row", { name: /被另一会话占用：会话 e2eholder0000001/ });
  await expect(held).toContainText("203.0.113.7，frpc 0.61.1");

  await held.getByRole("button", { name: "强制下线" }).click();
  await confirmPopover(page, "强制下线");
  await expect(page.getByText("已强制下线", { exact: false }).first()).toBeVisible();
  await expect(doctor.getByRole("row", { name: /会话 e2eholder0000001 已被强制下线/ })).toBeVisible();
  // The holder's next heartbeat is refused; the newcomer's passes.
  await expect
    .poll(async () => (await plugin("Ping", { user: who("e2eholder0000001") })).reject, { timeout: 10_000 })
    .toBe(true);
  expect((await plugin("Ping", { user: who("e2enewcomer00002") })).reject).toBe(false);
});
