import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";

/**
 * Issue 34 §6: the customer downloads their data as JSON, asks for the account's deletion (the
 * banner shows the date, on every page), an operator sees it pending, and the customer cancels.
 */
test("数据导出与注销: export downloads JSON; a deletion request shows the banner and is cancelled", async ({
  page,
}) => {
  // Two consoles (customer and operator), each page loaded cold, on a loaded machine.
  test.setTimeout(180_000);
  const customer = await registerUser();
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, customer.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "数据导出与注销" }).click();
  await expect(page).toHaveURL(/\/account\/leaving/);

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "导出数据（JSON）" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^burrow-export-${customer.uid}-.*\\.json$`));
  const data = JSON.parse(readFileSync(await file.path(), "utf8"));
  expect(data.profile).toMatchObject({ uid: customer.uid, phone: customer.phone });

  await page.getByLabel("登录密码").fill(customer.password);
  await page.getByLabel(/请输入“注销账号”确认/).fill("注销账号");
  await page.getByRole("button", { name: "申请注销" }).click();
  const banner = page.getByTestId("deletion-banner");
  await expect(banner).toContainText("账号已申请注销，将于");

  // the operator's list has it pending
  const operator = await page.context().browser()!.newPage();
  try {
    await openSignedIn(operator, await adminToken(), "/admin/leaving");
    const uidCell = operator.getByRole("cell", { name: String(customer.uid), exact: true });
    const row = operator.getByRole("row").filter({ has: uidCell });
    await expect(row).toContainText("冷静期中", { timeout: 30_000 });
  } finally {
    await operator.close();
  }

  // the banner follows the customer to other pages; its cancel ends the request
  await sider(page).getByRole("menuitem", { name: "仪表盘" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 30_000 });
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "撤销注销" }).click();
  await confirmPopover(page, "撤销注销");
  await expect(page.getByText("已撤销注销申请")).toBeVisible();
  await expect(banner).toHaveCount(0);
});
