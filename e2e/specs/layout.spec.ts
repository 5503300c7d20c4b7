import { MenuApi, type MenuItem } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";

/** Every page of a menu (leaves), as the server hands the menu to the app. */
function leaves(items: MenuItem[], base: string): { name: string; path: string }[] {
  return items.flatMap((i) =>
    i.children?.length ? leaves(i.children, base) : [{ name: i.name, path: base + i.path }],
  );
}

interface Problem {
  table: number;
  header: string;
  problem: string;
}

/**
 * For each table on the page: the 状态 column is fully in sight as the page opens (not under the
 * pinned 操作 column); a table wider than its card shows antd's shadow at the pinned column's edge
 * (the scroll hint); and each header cell, scrolled as far into view as it goes (just right of the
 * columns pinned left), lies inside the table's visible area with no pinned (sticky) cell over any
 * of it. The first row's cells, where the status tags are, are checked with their headers.
 * Returns what is wrong, in words.
 */
function checkTables(page: Page): Promise<Problem[]> {
  return page.evaluate(() => {
    const problems: { table: number; header: string; problem: string }[] = [];
    const sticky = (el: Element) => getComputedStyle(el).position === "sticky";
    const overlap = (a: DOMRect, b: DOMRect) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
    document.querySelectorAll(".ant-table-wrapper").forEach((wrapper, t) => {
      const scroller = (wrapper.querySelector(".ant-table-body") ??
        wrapper.querySelector(".ant-table-content") ??
        wrapper.querySelector(".ant-table-container")) as HTMLElement | null;
      if (!scroller) return;
      const headerRow = wrapper.querySelector(".ant-table-thead > tr:last-child");
      if (!headerRow) return;
      const heads = Array.from(headerRow.querySelectorAll<HTMLElement>("th")).filter(
        (th) => !th.classList.contains("ant-table-cell-scrollbar") && th.offsetWidth > 0,
      );
      const firstRow = wrapper.querySelector<HTMLElement>(".ant-table-tbody > tr.ant-table-row");
      const bodyCells = firstRow ? Array.from(firstRow.querySelectorAll<HTMLElement>(":scope > td")) : [];
      const headers = wrapper.querySelector(".ant-table-header") as HTMLElement | null;
      const columns: { label: string; cells: HTMLElement[] }[] = heads.map((th, i) => ({
        label: th.textContent?.trim() || `column ${i + 1}`,
        cells: [th, ...(bodyCells.length === heads.length ? [bodyCells[i]] : [])],
      }));
      const pinnedLeft = heads.filter((th) => th.classList.contains("ant-table-cell-fix-start"));
      const leftWidth = pinnedLeft.reduce((w, th) => w + th.offsetWidth, 0);
      // The status stays in sight as the page opens, without scrolling.
      scroller.scrollLeft = 0;
      for (const [i, th] of heads.entries()) {
        if (th.textContent?.trim() !== "状态") continue;
        const area = scroller.getBoundingClientRect();
        const pinned = heads.filter((h) => sticky(h) && h !== th).map((h) => h.getBoundingClientRect());
        for (const cell of [th, ...(bodyCells.length === heads.length ? [bodyCells[i]] : [])]) {
          const r = cell.getBoundingClientRect();
          if (r.right > area.right + 1 || pinned.some((p) => overlap(p, r) > 1)) {
            problems.push({ table: t, header: "状态", problem: "not fully visible before scrolling" });
          }
        }
      }
      // A table wider than its card says so: the pinned column's edge casts antd's shadow.
      if (
        scroller.scrollWidth > scroller.clientWidth + 1 &&
        heads.some((th) => th.classList.contains("ant-table-cell-fix-end"))
      ) {
        const table = wrapper.querySelector(".ant-table");
        if (!/fix-end-shadow-show|ping-right/.test(table?.className ?? "")) {
          problems.push({ table: t, header: "", problem: `no scroll hint (classes ${table?.className})` });
        }
      }
      for (const { label, cells } of columns) {
        const th = cells[0];
        if (!sticky(th)) {
          scroller.scrollLeft = Math.max(0, th.offsetLeft - leftWidth);
          if (headers) headers.scrollLeft = scroller.scrollLeft;
        } else {
          scroller.scrollLeft = 0;
        }
        const area = scroller.getBoundingClientRect();
        const viewport = { left: 0, right: document.documentElement.clientWidth };
        const pinned = Array.from(wrapper.querySelectorAll(".ant-table-thead th, .ant-table-tbody tr.ant-table-row td"))
          .filter((c) => sticky(c) && !cells.includes(c as HTMLElement))
          .map((c) => c.getBoundingClientRect());
        for (const cell of cells) {
          const r = cell.getBoundingClientRect();
          const where = cell === th ? "header" : "first row";
          if (r.left < Math.max(area.left, viewport.left) - 1 || r.right > Math.min(area.right, viewport.right) + 1) {
            problems.push({ table: t, header: label, problem: `${where} cell cannot be scrolled fully into view` });
            continue;
          }
          const covered = pinned.find((p) => p.top < r.bottom && p.bottom > r.top && overlap(p, r) > 1);
          if (covered) {
            problems.push({
              table: t,
              header: label,
              problem: `${where} cell covered by ${Math.round(overlap(covered, r))}px of a pinned column`,
            });
          }
        }
      }
      scroller.scrollLeft = 0;
    });
    return problems;
  });
}

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`every list page of both menus is usable at ${viewport.width}×${viewport.height}`, async ({ page }) => {
    test.setTimeout(180_000);
    const token = await adminToken();
    const customer = await call(MenuApi.getUserRolemenu, { token });
    const admin = await call(MenuApi.getSuperRoleMenu, { token });
    // 管理后台 and 返回用户端 switch consoles; they are not pages of their own.
    const pages = [...leaves(customer, ""), ...leaves(admin, "/admin")].filter(
      (p) => p.path !== "/adm" && p.path !== "/admin/dash",
    );
    expect(pages.length).toBeGreaterThan(20);
    await page.setViewportSize(viewport);
    await openSignedIn(page, token, "/dashboard");

    const found: string[] = [];
    let tables = 0;
    for (const p of pages) {
      await page.goto(p.path);
      await expect(page.locator(".shell-content")).toBeVisible();
      // A list page's table has rendered its header (and its first answer: no spinner left).
      await page.waitForLoadState("networkidle");
      await expect(page.locator(".ant-spin-spinning")).toHaveCount(0);
      const count = await page.locator(".ant-table-wrapper").count();
      if (count === 0) continue;
      tables += count;
      await expect(page.locator(".ant-table-thead th").first()).toBeVisible();
      for (const problem of await checkTables(page)) {
        found.push(`${p.name} (${p.path}) table ${problem.table + 1}, 「${problem.header}」: ${problem.problem}`);
      }
    }
    expect(tables).toBeGreaterThan(15);
    expect(found).toEqual([]);
  });
}

test("the links under the sign-in form look like the form's antd links", async ({ page }) => {
  await page.goto("/login");
  for (const name of ["注册账号", "忘记密码？"]) {
    // Plain links on /login's light path (no antd Typography there), in the theme's link colour.
    const link = page.getByRole("link", { name });
    await expect(link).toHaveCSS("color", "rgb(22, 104, 220)");
    await expect(link).toHaveCSS("text-decoration-line", "none");
  }
  await page.getByRole("link", { name: "注册账号" }).click();
  await expect(page).toHaveURL(/\/reg$/);
});

/** The phone drawer's menu (a navigation landmark inside antd's Drawer). */
const drawerMenu = (page: Page) => page.getByRole("navigation", { name: "侧边菜单" });

/** Whether the page scrolls sideways (anything wider than the window). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

test("on a phone (390×844) the menu opens over the page as a drawer and closes after a navigation", async ({
  page,
}) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, user.token, "/dashboard");
  const content = page.locator(".shell-content");
  // The greeting (other specs' announcements are level-4 headings too).
  const greeting = page.getByRole("heading", { level: 4, name: new RegExp(`用户${user.phone.slice(-4)}$`) });
  await expect(greeting).toBeVisible();
  // No inline sider: the page has the whole width, and the greeting is not squeezed to a column.
  await expect(sider(page)).toHaveCount(0);
  expect((await content.boundingBox())?.width).toBeGreaterThan(380);
  expect((await greeting.boundingBox())?.width).toBeGreaterThan(200);
  expect(await scrollsSideways(page)).toBe(false);

  const toggle = page.getByRole("button", { name: "展开菜单" });
  await toggle.click();
  const menu = drawerMenu(page);
  await expect(menu).toBeVisible();
  // Over the page, not beside it: the content keeps its width, the drawer leaves the mask visible.
  await expect.poll(async () => Math.round((await menu.boundingBox())?.x ?? -1)).toBe(0); // slid in from the left
  expect((await menu.boundingBox())?.width).toBeLessThan(300);
  expect((await content.boundingBox())?.width).toBeGreaterThan(380);
  await expect(menu.getByRole("menuitem", { name: "我的订单" })).toBeVisible();

  // A tap on an item goes there and closes the drawer.
  await menu.getByRole("menuitem", { name: "隧道列表" }).click();
  await expect(page).toHaveURL(/\/tun\/list$/);
  await expect(menu).toBeHidden();
  expect(await scrollsSideways(page)).toBe(false);

  // A tap on the page already open closes it too; so do the mask and Escape.
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await menu.getByRole("menuitem", { name: "隧道列表" }).click();
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await page.mouse.click(370, 400);
  await expect(menu).toBeHidden();
  await page.getByRole("button", { name: "展开菜单" }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  // Submenus open inside the drawer; their pages close it as well (the admin menu's 订单 group).
  const admin = await adminToken();
  await openSignedIn(page, admin, "/admin/view");
  await page.getByRole("button", { name: "展开菜单" }).click();
  await drawerMenu(page).getByRole("menuitem", { name: "订单", exact: true }).click();
  await drawerMenu(page).getByRole("menuitem", { name: "订单管理" }).click();
  await expect(page).toHaveURL(/\/admin\/order$/);
  await expect(drawerMenu(page)).toBeHidden();
});

test("at 1366×768 the menu stays the inline sider, open beside the page after a navigation", async ({ page }) => {
  const user = await registerUser();
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, user.token, "/dashboard");
  await expect(sider(page)).toBeVisible();
  expect((await sider(page).boundingBox())?.width).toBe(220);
  expect((await page.locator(".shell-content").boundingBox())?.x).toBe(220);
  await sider(page).getByRole("menuitem", { name: "我的订单" }).click();
  await expect(page).toHaveURL(/\/epay\/order$/);
  await expect(sider(page)).toBeVisible();
  expect((await sider(page).boundingBox())?.width).toBe(220);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
