import { OverviewApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";

/** The queue page's search form (its status filter). */
const filters = (page: Page) => page.locator("form").filter({ has: page.getByRole("button", { name: "查询" }) });

/** Issue 30 §12: the overview's waiting work lists withdrawals and invoices, each linking to its queue. */
test("the overview's waiting list links to the withdrawals and invoices awaiting an operator", async ({ page }) => {
  const token = await adminToken();
  const view = await call(OverviewApi.getSuperViewInfo, { token });
  const count = (key: string) => view.waiting.find((w) => w.key === key)?.count;
  await openSignedIn(page, token, "/admin/view");
  const waiting = page.locator(".overview-waiting");
  for (const [label, key] of [
    ["待审核提现", "withdrawals"],
    ["待开具发票", "invoices"],
  ] as const) {
    const item = waiting.getByRole("listitem").filter({ hasText: label });
    await expect(item).toContainText(String(count(key)));
  }

  await waiting.getByRole("link", { name: "待审核提现" }).click();
  await expect(page).toHaveURL(/\/admin\/withdrawal\?status=2$/);
  await expect(page.getByRole("heading", { name: "提现管理" })).toBeVisible();
  await expect(filters(page).getByText("处理中", { exact: true })).toBeVisible();

  await page.goBack();
  await waiting.getByRole("link", { name: "待开具发票" }).click();
  await expect(page).toHaveURL(/\/admin\/invoice\/list\?status=2$/);
  await expect(page.getByRole("heading", { name: "发票管理" })).toBeVisible();
  await expect(filters(page).getByText("待开具", { exact: true })).toBeVisible();
});
