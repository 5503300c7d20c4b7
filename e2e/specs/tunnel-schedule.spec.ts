import { TunnelsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

/** HH:mm of an instant on the Shanghai wall clock (UTC+8, no DST). */
const shanghaiHm = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(11, 16);

test("定时开放: a customer opens a tunnel for an hour, then weekly, and sees it in the list", async ({ page }) => {
  const user = await registerUser();
  const node = await localNode(user.token);
  const name = uniqueName("sched-");
  const tunnel = await createTunnelApi(user.token, node.node_id, name);

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  // the first page of a fresh browser boots the whole console: a loaded CI machine may take a while
  await expect(page.getByRole("heading", { name: `隧道详情 · ${name}` })).toBeVisible({ timeout: 30_000 });
  const card = page
    .locator(".ant-card")
    .filter({ has: page.locator(".ant-card-head-title", { hasText: /^定时开放$/ }) });
  await expect(card).toContainText("始终开放（未设置定时）");

  // 开放 1 小时: closes an hour from now (the minute may turn while the request runs).
  const before = Date.now();
  await card.getByRole("button", { name: "开放 1 小时" }).click();
  await expect(page.getByText("定时开放已设置")).toBeVisible();
  const closes = [shanghaiHm(before + 3_600_000), shanghaiHm(Date.now() + 3_600_000)];
  await expect(card.locator(".ant-tag")).toHaveText(new RegExp(`^将于 (\\S+ )?(${closes.join("|")}) 关闭$`));

  // 每周时段: Monday 22:00 to Tuesday 02:00 (an end before the start is the next day's).
  await card.getByRole("button", { name: "每周时段…" }).click();
  const modal = page.getByRole("dialog", { name: "每周开放时段" });
  await modal.getByLabel("第 1 个时段的开始时间").fill("22:00");
  await modal.getByLabel("第 1 个时段的结束时间").fill("02:00");
  await modal.getByRole("button", { name: "保存" }).click();
  await expect(card).toContainText("周一 22:00–02:00");
  await expect(card.locator(".ant-tag")).toHaveText(/^将于 .+ (开放|关闭)$/);

  // The list says the same under the tunnel's status.
  await page.getByRole("link", { name: "返回列表" }).click();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(/将于 .+ (开放|关闭)/);

  const saved = await call(TunnelsApi.getUserTunTunid, { token: user.token, params: { tunid: tunnel.tun_id } });
  expect(saved.schedule).toEqual({ kind: "weekly", windows: [{ day: 1, start: "22:00", end: "02:00" }] });
});
