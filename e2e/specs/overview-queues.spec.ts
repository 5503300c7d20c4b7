import { OverviewApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";

/** The queue page's search form (its status filter). */
const filters = (page: Page) => page.locator("form").filter({ has: page.getByRole("button", { name: "查询" }) });

/**
 * Issue 30 §12: the overview's waiting work lists withdrawals and invoices, each linking to its queue; issue 31
 * §3: and the event deliveries given up on, for the Managers who retry them.
 */
test("the overview's waiting list links to the withdrawals, invoices and dead deliveries awaiting an operator", async ({
  page,
}) => {
  const token = await adminToken();
  const view = await call(OverviewApi.getSuperViewInfo, { token });
  const count = (key: string) => view.waiting.find((w) => w.key === key)?.count;
  await openSignedIn(page, token, "/admin/view");
  const waiting = page.locator(".overview-waiting");
  for (const [label, key] of [
    ["待审核提现", "withdrawals"],
    ["待开具发票", "invoices"],
    ["投递失败的事件", "outbox"],
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

  await page.goBack();
  await waiting.getByRole("link", { name: "投递失败的事件" }).click();
  await expect(page).toHaveURL(/\/admin\/outbox\?status=dead$/);
  await expect(page.getByRole("heading", { name: "事件投递" })).toBeVisible();
  await expect(filters(page).getByText("已放弃", { exact: true })).toBeVisible();
});
