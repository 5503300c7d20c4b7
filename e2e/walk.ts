import { MenuApi, type MenuItem } from "@burrow/contract";
import { expect, type Page } from "@playwright/test";
import { call } from "./fixtures/api";
import { openSignedIn, sider } from "./fixtures/browser";
import { watchCsp } from "./fixtures/csp";

/**
 * One walk over every page of a console's menu, with every per-page check of the layout, table
 * and CSP specs made on the same page load. Each page is a full load (the app's chunks parsed
 * again, about 2 s on a loaded 2-vCPU machine), so walking the menus once per viewport instead of
 * once per spec is most of the browser suite's time.
 */

export interface MenuPage {
  name: string;
  path: string;
}

export type Console = "customer" | "operator";

/** Every page of a menu (leaves), as the server hands the menu to the app. */
function leaves(items: MenuItem[], base: string): MenuPage[] {
  return items.flatMap((i) =>
    i.children?.length ? leaves(i.children, base) : i.path ? [{ name: i.name, path: base + i.path }] : [],
  );
}

/**
 * The pages of one console's menu as the signed-in account gets it. 管理后台 and 返回用户端 switch
 * consoles: they are not pages of their own.
 */
export async function menuPages(token: string, area: Console): Promise<MenuPage[]> {
  const pages =
    area === "customer"
      ? leaves(await call(MenuApi.getUserRolemenu, { token }), "")
      : leaves(await call(MenuApi.getSuperRoleMenu, { token }), "/admin");
  return pages.filter((p) => p.path !== "/adm" && p.path !== "/admin/dash");
}

export interface Viewport {
  width: number;
  height: number;
}

/** Opens a page (a full load) and waits until its lists have had their first answer. */
export async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // generous: a loaded machine takes a while over a lazily loaded page
  await expect(page.locator(".shell-content"), path).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  // A list page's table has rendered its first answer: no spinner left.
  await expect(page.locator(".ant-spin-spinning"), path).toHaveCount(0, { timeout: 20_000 });
}

/** A check on the open page: what is wrong with it, in words. */
export type PageCheck = (page: Page, at: MenuPage) => Promise<string[]>;

/**
 * Signs in, opens every page in turn (a full load each) and, on each, asserts that it rendered
 * under the CSP (the CSP spec's checks: not sent to /login or /403, no 404/403/500 result, antd's
 * runtime styles applied to the sider where there is one, no CSP violation), then runs `checks`.
 * The checks' findings are collected, prefixed with the page, and returned: the caller asserts
 * them (and any counts it keeps) so that one run names every page that is wrong. Uncaught page
 * errors, console errors and API calls that failed are findings too.
 */
export async function walkPages(
  page: Page,
  opts: { token: string; pages: MenuPage[]; viewport: Viewport; checks: PageCheck[] },
): Promise<string[]> {
  const { token, pages, viewport, checks } = opts;
  const found: string[] = [];
  await page.setViewportSize(viewport);
  const csp = await watchCsp(page);
  const where = () => new URL(page.url()).pathname;
  page.on("console", (msg) => {
    // CSP messages are the CSP watch's (asserted on their own below).
    if (msg.type() === "error" && !/Content Security Policy|Refused to/i.test(msg.text()))
      found.push(`${where()}: console error: ${msg.text()}`);
  });
  page.on("response", (res) => {
    if (new URL(res.url()).pathname.startsWith("/api/") && res.status() >= 400)
      found.push(`${where()}: ${res.request().method()} ${new URL(res.url()).pathname} answered HTTP ${res.status()}`);
  });
  page.on("requestfailed", (req) => {
    // A full load aborts what the page before it still had in flight: that is not a failure.
    if (req.failure()?.errorText !== "net::ERR_ABORTED")
      found.push(`${where()}: ${req.method()} ${req.url()} failed: ${req.failure()?.errorText}`);
  });
  // A phone has no inline sider (the menu is a drawer behind 展开菜单).
  const desktop = viewport.width >= 992;
  await openSignedIn(page, token, pages[0].path);
  for (const p of pages) {
    await settle(page, p.path);
    if (desktop) await expect(sider(page), p.path).toBeVisible();
    await expect(page, p.path).not.toHaveURL(/\/(login|403)$/);
    await expect(page.locator(".ant-result-404, .ant-result-403, .ant-result-500"), p.path).toHaveCount(0);
    if (desktop) {
      // antd's runtime styles applied (a blocked <style> would leave the menu unstyled).
      const bg = await sider(page).evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(bg, p.path).not.toBe("rgba(0, 0, 0, 0)");
    } else {
      await expect(page.getByRole("button", { name: "展开菜单" }), p.path).toBeVisible();
    }
    expect(await csp.violations(), p.path).toEqual([]);
    for (const check of checks) {
      for (const problem of await check(page, p)) found.push(`${p.name} (${p.path}): ${problem}`);
    }
  }
  found.push(...csp.pageErrors.map((e) => `uncaught: ${e}`));
  return found;
}

/**
 * For each table on the page: the 状态 column is fully in sight as the page opens (not under the
 * pinned 操作 column); a table wider than its card shows antd's shadow at the pinned column's edge
 * (the scroll hint); and each header cell, scrolled as far into view as it goes (just right of the
 * columns pinned left), lies inside the table's visible area with no pinned (sticky) cell over any
 * of it. The first row's cells, where the status tags are, are checked with their headers.
 * Leaves every table scrolled back to its start.
 */
export function tableReachProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const sticky = (el: Element) => getComputedStyle(el).position === "sticky";
    const overlap = (a: DOMRect, b: DOMRect) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
    document.querySelectorAll(".ant-table-wrapper").forEach((wrapper, t) => {
      const at = (header: string) => `table ${t + 1}, 「${header}」`;
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
            problems.push(`${at("状态")}: not fully visible before scrolling`);
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
          problems.push(`${at("")}: no scroll hint (classes ${table?.className})`);
        }
      }
      // Pinned cells stay pinned whatever the scroll: found once, measured after each scroll.
      const stickyCells = Array.from(
        wrapper.querySelectorAll<HTMLElement>(".ant-table-thead th, .ant-table-tbody tr.ant-table-row td"),
      ).filter(sticky);
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
        const pinned = stickyCells.filter((c) => !cells.includes(c)).map((c) => c.getBoundingClientRect());
        for (const cell of cells) {
          const r = cell.getBoundingClientRect();
          const part = cell === th ? "header" : "first row";
          if (r.left < Math.max(area.left, viewport.left) - 1 || r.right > Math.min(area.right, viewport.right) + 1) {
            problems.push(`${at(label)}: ${part} cell cannot be scrolled fully into view`);
            continue;
          }
          const covered = pinned.find((p) => p.top < r.bottom && p.bottom > r.top && overlap(p, r) > 1);
          if (covered) {
            problems.push(
              `${at(label)}: ${part} cell covered by ${Math.round(overlap(covered, r))}px of a pinned column`,
            );
          }
        }
      }
      scroller.scrollLeft = 0;
      if (headers) headers.scrollLeft = 0;
    });
    return problems;
  });
}

/**
 * At a desktop width: no table (outside dialogs) scrolls sideways, a row's 状态 and 操作 (header
 * and first row) are in sight, and the page does not scroll sideways. Run before anything that
 * scrolls the tables.
 */
export function desktopListProblems(page: Page): Promise<string[]> {
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

/** On a phone: every list is cards, each within the screen, the status first and in sight, the actions in sight. */
export function phoneListProblems(page: Page): Promise<string[]> {
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
