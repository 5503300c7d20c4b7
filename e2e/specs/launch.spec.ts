import { expect, test } from "@playwright/test";
import { registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

test("一键启动: a customer copies the Linux command from the tunnel page, fetches frpc.toml with it, rotates the token in 个人中心 and sees the command change (the old one refused)", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const user = await registerUser();
  const node = await localNode(user.token);
  const tunnel = await createTunnelApi(user.token, node.node_id, uniqueName("launch-"));
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  const card = page.getByTestId("launch-card");
  await expect(card).toContainText("一键启动", { timeout: 30_000 });
  await expect(card.getByRole("tab", { name: "Docker" })).toBeVisible();
  await card.getByRole("button", { name: "复制 Linux 安装命令" }).click();
  const first = await page.evaluate(() => navigator.clipboard.readText());
  expect(first).toMatch(
    /^curl -fsSL (--proto '=https' --proto-redir '=https' )?-- '.+\/launch\/bl[\w-]{32}\/\d+\/install\.sh' \| sudo sh$/,
  );
  // the address is the configured PUBLIC_URL: the config the installed wrapper fetches is the tunnel's
  const base = /-- '(.+)\/install\.sh'/.exec(first)?.[1] ?? "";
  const token = /\/launch\/(bl[\w-]{32})\//.exec(first)?.[1] ?? "";
  // Docker: the wrapper saved in a private file the container mounts; the token not in docker run's arguments
  await card.getByRole("tab", { name: "Docker" }).click();
  await expect(card).toContainText("仅本人可读");
  await card.getByRole("button", { name: "复制 Docker 安装命令" }).click();
  const docker = await page.evaluate(() => navigator.clipboard.readText());
  const [fetchPart, runPart] = docker.split(" && docker run ");
  expect(fetchPart).toContain(`/launch/${token}/`);
  expect(runPart).toContain(":/burrow/start.sh:ro");
  expect(runPart).not.toContain(token);
  const toml = await request.get(`${new URL(base).pathname}/frpc.toml`);
  expect(toml.status()).toBe(200);
  expect(await toml.text()).toContain(`t_${tunnel.tun_id}`);

  // the personal centre: the token masked, 更换 confirmed
  await card.getByRole("link", { name: "个人中心" }).click();
  await expect(page).toHaveURL(/\/account\/info/);
  const tokenCard = page
    .locator(".ant-card")
    .filter({ has: page.locator(".ant-card-head-title", { hasText: /^启动令牌$/ }) });
  await expect(tokenCard.getByTestId("launch-token")).toContainText("••••");
  await tokenCard.getByRole("button", { name: "更换令牌" }).click();
  await page.getByRole("button", { name: "更换", exact: true }).click();
  await expect(page.getByText("启动令牌已更换")).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  await page.getByTestId("launch-card").getByRole("button", { name: "复制 Linux 安装命令" }).click();
  const second = await page.evaluate(() => navigator.clipboard.readText());
  expect(second).not.toBe(first);
  expect(second).toMatch(/\/launch\/bl[\w-]{32}\/\d+\/install\.sh/);
  const refused = await request.get(`${new URL(base).pathname}/frpc.toml`);
  expect(refused.status()).toBe(401);
  expect(await refused.text()).toContain("启动令牌已失效");
});
