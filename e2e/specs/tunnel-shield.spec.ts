import { TunnelsApi, UsersApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createNodeApi, createTunnelApi, levelByName, uniqueName } from "../fixtures/catalog";
import { BASE_URL } from "../fixtures/env";

test("访客防护: a deny list and the ban rule set on the tunnel page refuse visitors at NewUserConn; a ban is listed and lifted", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const admin = await adminToken();
  const node = await createNodeApi(admin, uniqueName("防护节点"), (await levelByName(admin, "免费版")).id);
  const user = await registerUser();
  const { frp_token } = await call(UsersApi.getUserUserInfo, { token: user.token });
  const tunnel = await createTunnelApi(user.token, node.node_id, uniqueName("ssh-"));
  /** a visitor's NewUserConn exactly as frps posts it */
  const visit = async (addr: string) => {
    const res = await fetch(
      `${BASE_URL}/api/frp/plugin/${node.node_id}/${node.plugin_secret}?op=NewUserConn&version=0.1.0`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          version: "0.1.0",
          op: "NewUserConn",
          content: {
            user: { user: `u_${user.uid}`, metas: { token: frp_token }, run_id: "e2eshield0000001" },
            proxy_name: `u_${user.uid}.t_${tunnel.tun_id}`,
            proxy_type: "tcp",
            remote_addr: addr,
          },
        }),
      },
    );
    return (await res.json()) as { reject: boolean; reject_reason?: string };
  };

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  const card = page.locator(".tunnel-shield-card");
  const deny = card.getByLabel("拒绝列表");
  // The first page of a fresh context loads the whole console cold: 30 s under load.
  await deny.fill("300.1.1.1", { timeout: 30_000 });
  await deny.press("Enter");
  await card.getByRole("button", { name: "保存访客防护" }).click();
  await expect(card).toContainText("应为 IPv4/IPv6 地址或 CIDR 网段");
  // the bad entry's own remove button (a Backspace could land before the field had focus again)
  const bad = card.locator(".ant-select-selection-item", { hasText: "300.1.1.1" });
  await bad.locator(".ant-select-selection-item-remove").click();
  await expect(bad).toHaveCount(0);
  await deny.fill("198.51.100.0/24");
  await deny.press("Enter");
  await card.getByRole("switch", { name: "自动封禁" }).click();
  await card.getByLabel("新建连接超过（次）").fill("2");
  await card.getByRole("button", { name: "保存访客防护" }).click();
  await expect(page.getByText("访客防护已保存")).toBeVisible();
  const saved = await call(TunnelsApi.getUserTunTunidShield, { token: user.token, params: { tunid: tunnel.tun_id } });
  expect(saved).toMatchObject({ deny: ["198.51.100.0/24"], rule_enabled: true, conns: 2, defaults: false });

  expect(await visit("198.51.100.9:40000")).toMatchObject({
    reject: true,
    reject_reason: expect.stringContaining("拒绝列表"),
  });
  expect((await visit("203.0.113.20:1")).reject).toBe(false);
  expect((await visit("203.0.113.20:2")).reject).toBe(false);
  expect(await visit("203.0.113.20:3")).toMatchObject({
    reject: true,
    reject_reason: expect.stringContaining("自动封禁"),
  });

  // The ban is written behind the decision (about a second): the list shows it once there.
  const bans = () =>
    call(TunnelsApi.getUserTunTunidShieldBans, { token: user.token, params: { tunid: tunnel.tun_id } });
  await expect.poll(async () => (await bans()).list.map((b) => b.ip), { timeout: 15_000 }).toEqual(["203.0.113.20"]);
  await page.reload();
  await expect(card.getByRole("row").filter({ hasText: "203.0.113.20" })).toContainText("2 次", { timeout: 30_000 });
  await card.getByRole("row").filter({ hasText: "203.0.113.20" }).getByRole("button", { name: "解除" }).click();
  await confirmPopover(page, "解除");
  await expect(page.getByText("已解除封禁")).toBeVisible();
  await expect(card).toContainText("没有被封禁的地址");
  expect((await visit("203.0.113.20:4")).reject).toBe(false);
});
