import { expect, test } from "@playwright/test";
import { registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

test("外网检测 on the tunnel page: a tunnel without frpc is said to be frpc not connected, with the port it tried", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await registerUser();
  const node = await localNode(user.token);
  const tunnel = await createTunnelApi(user.token, node.node_id, uniqueName("reach-"));

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  const card = page.locator(".tunnel-reach-card");
  // The first page of a fresh context loads the whole console cold: 30 s under load.
  await card.getByRole("button", { name: "外网检测" }).click({ timeout: 30_000 });
  const verdict = card.getByTestId("reach-verdict");
  await expect(verdict).toContainText("frpc 未连接", { timeout: 15_000 });
  await expect(card).toContainText(`${node.host}:${tunnel.remote_port} 连接被拒绝`);
  await expect(card).toContainText("本小时还可检测 9 次");
});
