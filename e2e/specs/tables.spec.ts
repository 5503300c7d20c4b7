import { mkdirSync } from "node:fs";
import { MenuApi, type MenuItem } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";

/**
 * Issue 35 §2/§5: every list page shows what matters at every width. At 1366×768 no table scrolls
 * sideways and a row's status and 操作 are in sight (the less important columns are in the row's
 * detail); on a phone (390×844) rows are cards with the status first and the actions in sight.
 */

/** Every page of a menu (leaves), as the server hands the menu to the app. */
function leaves(items: MenuItem[], base: string): { name: string; path: string }[] {
  return items.flatMap((i) =>
    i.children?.length ? leaves(i.children, base) : [{ name: i.name, path: base + i.path }],
  );
}

const SHOTS = process.env.SHOTS_DIR ?? "/tmp/shots-h1";
/** Pages photographed at both sizes, to look at. */
const PHOTOGRAPHED = new Set([
  "/tun/list",
  "/domain",
  "/admin/node",
  "/admin/plan",
  "/admin/tun",
  "/admin/usermgr/list",
]);

/** What is wrong with the tables at a desktop width, in words. */
function desktopProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = document.documentElement.clientWidth;
    document.querySelectorAll<HTMLElement>(".ant-table-wrapper").forEach((wrapper, t) => {
      if (wrapper.closest(".ant-modal, .ant-drawer")) return;
      const scroller = (wrapper.querySelector(".ant-table-body") ??
        wrapper.querySelector(".ant-table-content") ??
        wrapper.querySelector(".ant-table-container")) as HTMLElement | null;
      if (!scroller) return;
      if (scroller.scrollWidth > scroller.clientWidth + 1) {
        problems.push(`table ${t + 1} scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
      }
      const heads = Array.from(wrapper.querySelectorAll<HTMLElement>(".ant-table-thead > tr:last-child > th"));
      const firstRow = wrapper.querySelector<HTMLElement>(".ant-table-tbody > tr.ant-table-row");
      for (const label of ["状态", "操作"]) {
        const i = heads.findIndex((th) => th.textContent?.trim() === label);
        if (i < 0) continue;
        const cells = [heads[i], ...(firstRow ? [firstRow.querySelectorAll<HTMLElement>(":scope > td")[i]] : [])];
        for (const cell of cells) {
          const r = cell?.getBoundingClientRect();
          if (!r || r.width < 30 || r.left < 0 || r.right > vw + 1) {
            problems.push(`table ${t + 1}: 「${label}」 not in sight`);
          }
        }
      }
    });
    if (document.documentElement.scrollWidth > vw + 1) problems.push("the page scrolls sideways");
    return problems;
  });
}

/** What is wrong with the lists on a phone, in words. */
function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = document.documentElement.clientWidth;
    const inSight = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.left >= -1 && r.right <= vw + 1;
    };
    document.querySelectorAll<HTMLElement>(".responsive-table").forEach((wrapper, t) => {
      if (!wrapper.classList.contains("responsive-cards")) problems.push(`list ${t + 1} is not cards`);
      for (const card of wrapper.querySelectorAll(".responsive-card")) {
        if (!inSight(card)) problems.push(`list ${t + 1}: a card is wider than the screen`);
        const head = card.querySelector(".responsive-card-head");
        const status = card.querySelector("[data-role=status]");
        if (status && head?.firstElementChild !== status) problems.push(`list ${t + 1}: status is not first`);
        if (status && !inSight(status)) problems.push(`list ${t + 1}: status not in sight`);
        for (const action of card.querySelectorAll("[data-role=actions] button, [data-role=actions] a")) {
          if (!inSight(action)) problems.push(`list ${t + 1}: action 「${action.textContent}」 not in sight`);
        }
      }
    });
    if (document.documentElement.scrollWidth > vw + 1) problems.push("the page scrolls sideways");
    return problems;
  });
}

/** The pages of one console's menu (管理后台 and 返回用户端 switch consoles: not pages of their own). */
async function listPages(token: string, area: "customer" | "operator") {
  const pages =
    area === "customer"
      ? leaves(await call(MenuApi.getUserRolemenu, { token }), "")
      : leaves(await call(MenuApi.getSuperRoleMenu, { token }), "/admin");
  return pages.filter((p) => p.path !== "/adm" && p.path !== "/admin/dash");
}

async function settle(page: Page, path: string) {
  await page.goto(path);
  // generous: a loaded machine takes a while over a lazily loaded page
  await expect(page.locator(".shell-content")).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".ant-spin-spinning")).toHaveCount(0, { timeout: 20_000 });
}

let token: string;
let tunName: string;

test.beforeAll(async () => {
  token = await adminToken();
  // a row on the customer's and the operator's tunnel lists
  tunName = uniqueName("tables-");
  await createTunnelApi(token, (await localNode(token)).node_id, tunName);
  mkdirSync(SHOTS, { recursive: true });
});

for (const area of ["customer", "operator"] as const) {
  test(`at 1366×768 every ${area} list shows its status and actions without scrolling sideways`, async ({ page }) => {
    test.setTimeout(900_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await openSignedIn(page, token, "/dashboard");
    const found: string[] = [];
    let lists = 0;
    for (const p of await listPages(token, area)) {
      await settle(page, p.path);
      lists += await page.locator(".responsive-table").count();
      for (const problem of await desktopProblems(page)) found.push(`${p.name} (${p.path}): ${problem}`);
      if (PHOTOGRAPHED.has(p.path)) {
        await page.screenshot({ path: `${SHOTS}/1366${p.path.replaceAll("/", "_")}.png`, fullPage: true });
      }
    }
    expect(found).toEqual([]);
    expect(lists).toBeGreaterThan(10);
  });
}

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

for (const area of ["customer", "operator"] as const) {
  test(`on a phone (390×844) every ${area} list is cards with the status first and the actions in sight`, async ({
    page,
  }) => {
    test.setTimeout(900_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await openSignedIn(page, token, "/dashboard");
    const found: string[] = [];
    let cards = 0;
    for (const p of await listPages(token, area)) {
      await settle(page, p.path);
      cards += await page.locator(".responsive-card").count();
      for (const problem of await phoneProblems(page)) found.push(`${p.name} (${p.path}): ${problem}`);
      if (PHOTOGRAPHED.has(p.path)) {
        await page.screenshot({ path: `${SHOTS}/390${p.path.replaceAll("/", "_")}.png`, fullPage: true });
      }
    }
    expect(found).toEqual([]);
    expect(cards).toBeGreaterThan(1);
  });
}

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
