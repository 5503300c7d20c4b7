import { TunnelsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { localNode, uniqueName } from "../fixtures/catalog";

test("私密隧道: a customer creates an stcp tunnel, sees its secret and copies the visitor side's frpc.toml", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const user = await registerUser();
  const node = await localNode(user.token);

  await openSignedIn(page, user.token, `/tun/list/add?node_id=${node.node_id}`);
  await expect(page.getByRole("heading", { name: "创建隧道" })).toBeVisible({ timeout: 30_000 });
  const name = uniqueName("secret-");
  await page.getByLabel("隧道名称").fill(name);
  await page.getByLabel("本地端口").fill("22");
  await page
    .locator(".ant-radio-button-wrapper")
    .filter({ hasText: /^STCP$/ })
    .click();
  await expect(page.getByRole("radio", { name: "STCP", exact: true })).toBeChecked();
  // No public port or domain for a secret tunnel: the form says so instead.
  await expect(page.getByLabel("远程端口")).toHaveCount(0);
  await expect(page.locator(".tunnel-secret-note")).toContainText("不占用公网端口");
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  const tunId = Number(page.url().split("/").pop());

  const card = page
    .locator(".ant-card")
    .filter({ has: page.locator(".ant-card-head-title", { hasText: "访问端配置" }) });
  const { secret_key } = await call(TunnelsApi.getUserTunTunid, { token: user.token, params: { tunid: tunId } });
  expect(secret_key).toBeTruthy();
  await expect(card).toContainText(secret_key!);
  // 外网检测 has nothing to check on a tunnel that opens no port on the node: not offered
  await expect(page.locator(".ant-card-head-title", { hasText: "连接诊断" })).toBeVisible();
  await expect(page.locator(".ant-card-head-title", { hasText: "外网检测" })).toHaveCount(0);
  const file = `frpc_visitor_t${tunId}.toml`;
  await card.getByRole("button", { name: `复制 ${file}` }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("[[visitors]]");
  expect(copied).toContain('type = "stcp"');
  expect(copied).toContain(`serverName = "t_${tunId}"`);
  expect(copied).toContain(`secretKey = "${secret_key}"`);
  expect(copied).toContain("bindPort = 10022");

  // 重置密钥: a new secret, shown in the card and the file.
  await card.getByRole("button", { name: "重置密钥" }).click();
  await page.getByRole("button", { name: "重置", exact: true }).click();
  await expect(page.getByText("密钥已重置")).toBeVisible();
  const rotated = await call(TunnelsApi.getUserTunTunid, { token: user.token, params: { tunid: tunId } });
  expect(rotated.secret_key).not.toBe(secret_key);
  await expect(card.locator("pre")).toContainText(`secretKey = "${rotated.secret_key}"`);
});

test("私密隧道 XTCP: the form and the card say it falls back to relaying through the node; the visitor file falls back to stcp", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const user = await registerUser();
  const node = await localNode(user.token);

  await openSignedIn(page, user.token, `/tun/list/add?node_id=${node.node_id}`);
  await expect(page.getByRole("heading", { name: "创建隧道" })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("隧道名称").fill(uniqueName("p2p-"));
  await page.getByLabel("本地端口").fill("3389");
  await page
    .locator(".ant-radio-button-wrapper")
    .filter({ hasText: /^XTCP$/ })
    .click();
  await expect(page.getByRole("radio", { name: "XTCP", exact: true })).toBeChecked();
  const note = page.locator(".tunnel-secret-note");
  await expect(note).toContainText("无法打洞时自动改由节点中转");
  await expect(note).not.toContainText("连接不上");
  await page.getByRole("button", { name: "创建隧道" }).click();
  await expect(page).toHaveURL(/\/tun\/list\/\d+$/);
  const tunId = Number(page.url().split("/").pop());

  const card = page
    .locator(".ant-card")
    .filter({ has: page.locator(".ant-card-head-title", { hasText: "访问端配置" }) });
  await expect(card).toContainText("打洞失败时自动改由节点中转");
  await expect(card).not.toContainText("无法连接");
  const file = `frpc_visitor_t${tunId}.toml`;
  await card.getByRole("button", { name: `复制 ${file}` }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('type = "xtcp"');
  expect(copied).toContain(`fallbackTo = "v_${tunId}_stcp"`);
  expect(copied).toContain(`serverName = "t_${tunId}_stcp"`);
  expect(copied).toContain("bindPort = -1");

  // 访客防护 is offered, for the relayed connections.
  const shield = page.locator(".tunnel-shield-card");
  await expect(shield.locator(".tunnel-shield-xtcp")).toContainText("只作用于经节点中转的连接");
  await expect(shield.getByRole("button", { name: "保存访客防护" })).toBeVisible();
  await card.screenshot({ path: `${process.env.E2E_TMP_DIR ?? "/tmp"}/tunnel-secret-xtcp-card.png` });
  await shield.screenshot({ path: `${process.env.E2E_TMP_DIR ?? "/tmp"}/tunnel-secret-xtcp-shield.png` });
});
