import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { uniqueName } from "../fixtures/catalog";

test("an operator adds, renames and deletes an area; one in use cannot be deleted", async ({ page }) => {
  const name = uniqueName("华南-");
  await openSignedIn(page, await adminToken(), "/admin/view");
  await sider(page).getByRole("menuitem", { name: "节点", exact: true }).click();
  await sider(page).getByRole("menuitem", { name: "地区管理" }).click();
  await expect(page).toHaveURL(/\/admin\/area$/);
  await expect(page.getByRole("heading", { name: "地区管理" })).toBeVisible();

  await page.getByRole("button", { name: "新增地区" }).click();
  const add = page.getByRole("dialog", { name: "新增地区" });
  await add.getByRole("button", { name: "保存" }).click();
  await expect(add.getByText("请输入地区名称")).toBeVisible();
  await add.getByLabel("地区名称").fill(name);
  await add.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("地区已添加")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toBeVisible();

  // The same name again: the server's 40008 lands on the field.
  await page.getByRole("button", { name: "新增地区" }).click();
  await add.getByLabel("地区名称").fill(name);
  await add.getByRole("button", { name: "保存" }).click();
  await expect(add.getByText("地区名称已存在")).toBeVisible();
  await add.getByRole("button", { name: "取消" }).click();
  await expect(add).toBeHidden();

  // The filter lives in the URL.
  await page.getByRole("textbox", { name: "地区名称" }).fill(name);
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(new RegExp(`area_name=${encodeURIComponent(name)}`));
  await expect(page.getByRole("row")).toHaveCount(2);

  await page
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("button", { name: "编辑" })
    .click();
  const edit = page.getByRole("dialog", { name: "编辑地区" });
  await expect(edit.getByLabel("地区名称")).toHaveValue(name);
  await edit.getByLabel("地区名称").fill(`${name}改`);
  await edit.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("地区已保存")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${name}改`) })).toBeVisible();

  await page
    .getByRole("row", { name: new RegExp(`${name}改`) })
    .getByRole("button", { name: "删除" })
    .click();
  await confirmPopover(page, "删除");
  await expect(page.getByText("地区已删除")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);

  // The seeded area holds the local node: the server refuses and says why.
  await page.getByRole("button", { name: "重置" }).click();
  await page
    .getByRole("row", { name: /默认地区/ })
    .getByRole("button", { name: "删除" })
    .click();
  await confirmPopover(page, "删除");
  await expect(page.getByText(/该地区下还有 \d+ 个节点/)).toBeVisible();
  await expect(page.getByRole("row", { name: /默认地区/ })).toBeVisible();
});

test("an operator adds, edits and deletes a store level; one in use cannot be deleted", async ({ page }) => {
  const name = uniqueName("钻石版");
  const rank = 100 + Math.floor(Math.random() * 800);
  await openSignedIn(page, await adminToken(), "/admin/level");
  await expect(page.getByRole("heading", { name: "商店等级" })).toBeVisible();

  await page.getByRole("button", { name: "新增等级" }).click();
  const add = page.getByRole("dialog", { name: "新增等级" });
  await add.getByLabel("等级名称").fill(name);
  // 1 is the seeded 免费版: the duplicate is reported on the 等级 field.
  await add.getByLabel("等级", { exact: true }).fill("1");
  await add.getByRole("button", { name: "保存" }).click();
  await expect(add.getByText("该等级数值已存在")).toBeVisible();
  await add.getByLabel("等级", { exact: true }).fill(String(rank));
  await add.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("等级已添加")).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(String(rank));

  await row.getByRole("button", { name: "编辑" }).click();
  const edit = page.getByRole("dialog", { name: "编辑等级" });
  await edit.getByLabel("等级名称").fill(`${name}Plus`);
  await edit.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("等级已保存")).toBeVisible();
  const renamed = page.getByRole("row", { name: new RegExp(`${name}Plus`) });
  await expect(renamed).toBeVisible();

  await renamed.getByRole("button", { name: "删除" }).click();
  await confirmPopover(page, "删除");
  await expect(page.getByText("等级已删除")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);

  // 免费版 carries the default plan (and the local node).
  await page
    .getByRole("row", { name: /免费版/ })
    .getByRole("button", { name: "删除" })
    .click();
  await confirmPopover(page, "删除");
  await expect(page.getByText(/还有 \d+ 个(套餐|节点)使用该等级，无法删除/)).toBeVisible();
});
