import { expect, test } from "@playwright/test";
import { adminToken } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";
import { settle } from "../walk";

/**
 * Issue 35 §2/§5: every list page shows what matters at every width. At 1366×768 no table scrolls
 * sideways and a row's status and 操作 are in sight (the less important columns are in the row's
 * detail); on a phone (390×844) rows are cards with the status first and the actions in sight.
 * Those checks run on every list page in menu-pages.spec.ts (one walk per viewport); here, the
 * columns and cards of particular lists.
 */

let token: string;
let tunName: string;

test.beforeAll(async () => {
  token = await adminToken();
  // a row on the customer's and the operator's tunnel lists
  tunName = uniqueName("tables-");
  await createTunnelApi(token, (await localNode(token)).node_id, tunName);
});

test("at 1366×768 the columns that matter are shown and the rest are in the row's detail", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, token, "/dashboard");
  const headers = async (path: string) => {
    await settle(page, path);
    return page.locator(".ant-table-thead th").allInnerTexts();
  };
  // the operator's node list: status, name, level, protocols, ports
  const node = await headers("/admin/node");
  for (const h of ["状态", "节点", "等级", "协议", "端口范围", "操作"]) expect(node).toContain(h);
  // the plan list: price and the on-sale switch
  const plan = await headers("/admin/plan");
  for (const h of ["名称", "价格", "在售", "操作"]) expect(plan).toContain(h);
  // 我的域名: the check result
  const domain = await headers("/domain");
  for (const h of ["域名", "状态", "检查结果", "操作"]) expect(domain).toContain(h);

  // the customer's tunnel list: status first; what did not fit opens in the row's detail
  const tun = (await headers("/tun/list")).filter((h) => h.trim());
  expect(tun[0]).toBe("状态");
  const row = page.getByRole("row", { name: new RegExp(tunName) });
  await expect(row).toContainText("离线");
  await expect(row.getByRole("button", { name: "删除" })).toBeVisible();
  const hidden = [
    "状态",
    "隧道名称",
    "节点",
    "协议",
    "本地服务",
    "访问地址",
    "今日流量（入/出）",
    "启用",
    "操作",
  ].filter((h) => !tun.includes(h));
  if (hidden.length) {
    await row.getByRole("button", { name: /展开/ }).click();
    const detail = page.locator(".ant-table-expanded-row").first();
    for (const h of hidden) await expect(detail).toContainText(h);
  }
});

test("on a phone (390×844) a tunnel's and a node's card lead with the status", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, token, "/dashboard");
  // the customer's tunnel: status first, then its name, the delete button in sight; 更多 shows the rest
  await settle(page, "/tun/list");
  const card = page.locator(".responsive-card", { hasText: tunName });
  await expect(card.locator(".responsive-card-head > *").first()).toContainText("离线");
  await expect(card.getByRole("button", { name: "删除" })).toBeInViewport();
  await card.getByRole("button", { name: "更多" }).click();
  await expect(card).toContainText("本地服务");
  // the operator's node: status first
  await settle(page, "/admin/node");
  const nodeCard = page.locator(".responsive-card", { hasText: "本地节点" });
  await expect(nodeCard.locator("[data-role=status]")).toBeInViewport();
  await expect(nodeCard.getByRole("button", { name: "部署" })).toBeInViewport();
});
