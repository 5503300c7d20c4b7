import { NodesApi, TunnelsApi, UsermgrApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createNodeApi, createTunnelApi, levelByName, uniqueName } from "../fixtures/catalog";
import { ADMIN } from "../fixtures/env";
import { FrpcClient, FrpsSim, frpsOptionsFromToml, parseFrpcConfig } from "../fixtures/frp";

const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/** Nothing on the page is wider than the window (no sideways scrolling). */
async function expectNoSidewaysScroll(page: import("@playwright/test").Page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
}

/**
 * Issue 35 §6: the audit log names actions in Chinese, shows changes as "字段：旧值 → 新值" in
 * yuan, the operator by name and phone, and filters by action and operator — at both sizes.
 */
for (const size of SIZES) {
  test(`the audit log is readable and filters by action and operator (${size.width}×${size.height})`, async ({
    page,
  }) => {
    const token = await adminToken();
    const user = await registerUser();
    const nickname = uniqueName("审计");
    await call(UsermgrApi.patchSuperUserInfo, {
      token,
      body: { uid: user.uid, balance_change: 1234, balance_reason: `补偿 ${nickname}` },
    });
    await call(UsermgrApi.patchSuperUserInfo, { token, body: { uid: user.uid, nickname } });

    await page.setViewportSize(size);
    await openSignedIn(page, token, "/admin/audit");
    await expect(page.getByRole("heading", { name: "审计日志" })).toBeVisible({ timeout: 20_000 });
    // 60-odd actions in a virtual list: typed to narrow it, as a person would
    const action = page.getByLabel("操作", { exact: true });
    await action.fill("修改用户");
    await chooseOption(page, action, "修改用户");
    await chooseOption(page, page.getByLabel("操作人"), `管理员 ${ADMIN.phone}`);
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/action=user\.update/);
    const rows = page.locator(".ant-table-tbody tr.ant-table-row");
    // The old value is recorded too: 昵称：旧昵称 → 新昵称
    const renamed = rows.filter({ hasText: `→ ${nickname}` });
    await expect(renamed).toContainText("修改用户");
    await expect(renamed).toContainText(new RegExp(`昵称：\\S+ → ${nickname}`));
    await expect(renamed).toContainText(ADMIN.phone);
    await expect(renamed).toContainText(`用户 #${user.uid}`);
    const adjusted = rows.filter({ hasText: `补偿 ${nickname}` });
    await expect(adjusted).toContainText("余额调整：¥12.34");
    await expect(adjusted).not.toContainText("user.update");
    await expect(adjusted).not.toContainText("1234");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: test.info().outputPath(`audit-${size.width}.png`), fullPage: true });
  });
}

/**
 * Issue 35 §8: a connected tunnel without visitors is listed under 当前活跃代理, as the tunnel list
 * shows it 已连接 (the frps simulator carries it).
 */
test("the live view lists a connected tunnel (1366×768 and 390×844)", async ({ page }) => {
  test.setTimeout(90_000);
  const token = await adminToken();
  const level = await levelByName(token, "免费版");
  const node = await createNodeApi(token, uniqueName("e2e-live-"), level.id);
  const setup = await call(NodesApi.getSuperNodeSetup, { token, query: { node_id: node.node_id } });
  const fromToml = frpsOptionsFromToml(setup.frps_toml);
  const sim = new FrpsSim({ ...fromToml, webServer: { ...fromToml.webServer, addr: "127.0.0.1", port: 0 } });
  await sim.start();
  let client: FrpcClient | null = null;
  try {
    await call(NodesApi.patchSuperNode, { token, body: { node_id: node.node_id, api_addr: sim.dashboardUrl } });
    const user = await registerUser();
    const tunName = uniqueName("live-");
    const tun = await createTunnelApi(user.token, node.node_id, tunName);
    const cfg = await call(TunnelsApi.getUserTunConfig, { token: user.token, query: { tun_id: tun.tun_id } });
    client = new FrpcClient(sim, parseFrpcConfig(cfg.toml), { timers: false });
    await client.start();

    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openSignedIn(page, token, `/admin/tun/conns?node_id=${node.node_id}`);
      const live = page.locator(".ant-card").filter({ hasText: "当前活跃代理" });
      await expect(async () => {
        await page.reload();
        await expect(live.locator("tr.ant-table-row").filter({ hasText: tunName })).toContainText("在线", {
          timeout: 3_000,
        });
      }).toPass({ timeout: 20_000 });
      // the status is on screen, not behind the table's sideways scroll
      const row = live.locator("tr.ant-table-row").filter({ hasText: tunName });
      await expect(row.getByText("在线", { exact: true })).toBeInViewport({ ratio: 1 });
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`conns-${size.width}.png`), fullPage: true });
    }
  } finally {
    await client?.stop();
    await sim.stop();
  }
});
