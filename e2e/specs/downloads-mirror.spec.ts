import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { DownloadsApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { BASE_URL, REPO_ROOT, SERVER_STATE, TMP_DIR } from "../fixtures/env";

/**
 * Issue 33 §1: the console hosts frpc itself. The operator runs `npm run admin -- frp-mirror` on the
 * suite server's data directory (one native platform, a real `go build` from the pinned module);
 * /admin/download shows the row as 控制台镜像, and a customer downloads the file through /download's
 * link, getting the bytes whose SHA-256 the page shows.
 */
const V = "0.70.1";
const FILE = `frpc_${V}_linux_amd64`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(TMP_DIR, "screens", `downloads-mirror-${name}.png`), fullPage: true });
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

test("the operator mirrors frpc; the admin page marks it and a customer downloads the same bytes", async ({ page }) => {
  test.setTimeout(300_000);
  const { dataDir } = JSON.parse(readFileSync(SERVER_STATE, "utf8")) as { dataDir: string };
  const admin = await adminToken();
  const before = await call(DownloadsApi.getUserDownload, { token: admin });

  await openSignedIn(page, admin, "/admin/download");
  // On a loaded machine the page's chunk can take a while; the checks below start once it is there.
  await expect(page.getByRole("button", { name: "新增客户端" })).toBeVisible({ timeout: 30_000 });
  const hint = page.getByRole("alert").filter({ hasText: "由控制台自行构建并托管客户端" });
  if (before.some((r) => r.mirrored)) await expect(hint).toHaveCount(0);
  else {
    await expect(hint).toContainText("npm run admin -- frp-mirror");
    await shot(page, "admin-hint");
  }

  // What the operator types on the server (the suite's server shares its SQLite file with the command).
  const run = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "apps/server/src/cli/admin.ts", "frp-mirror", "--platforms", "linux/amd64"],
    { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PUBLIC_URL: BASE_URL } },
  );
  expect(run.stdout).toContain(FILE);
  const onDisk = sha256(readFileSync(path.join(dataDir, "mirror", "frp", V, FILE)));
  expect(run.stdout).toContain(onDisk);

  await page.reload();
  const row = page.locator(".ant-table-row", { hasText: "控制台镜像" }).filter({ hasText: V }).first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(hint).toHaveCount(0);
  await row.getByRole("button", { name: "编辑" }).click();
  const dialog = page.getByRole("dialog", { name: "编辑客户端" });
  await expect(dialog.getByText("控制台镜像的构建由 frp-mirror 命令维护")).toBeVisible();
  await expect(dialog.getByLabel("下载地址")).toBeDisabled();
  await expect(dialog.getByLabel("下载地址")).toHaveValue(`${BASE_URL}/download/frp/${V}/${FILE}`);
  await expect(dialog.getByLabel("SHA-256 校验和")).toHaveValue(onDisk);
  await expect(dialog.getByLabel("SHA-256 校验和")).toBeDisabled();
  await shot(page, "admin-edit");
  // Only note and sort are sent for a mirrored row (the server refuses a changed link or hash).
  await dialog.getByLabel("说明").fill("控制台镜像 · 推荐");
  await dialog.getByRole("button", { name: "保存" }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => (await call(DownloadsApi.getUserDownload, { token: admin })).find((r) => r.mirrored)?.note)
    .toBe("控制台镜像 · 推荐");
  await shot(page, "admin-list");

  // A customer on Linux x86-64 (headless Chromium's user agent) sees it first and downloads it.
  const customer = await registerUser();
  await openSignedIn(page, customer.token, "/download");
  const suggested = page.locator(".download-suggested");
  await expect(suggested).toContainText("Linux x86-64", { timeout: 30_000 });
  await expect(suggested).toContainText(onDisk);
  await shot(page, "customer");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    suggested.getByRole("link", { name: `下载 Linux x86-64 ${V}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(FILE);
  const saved = await download.path();
  expect(sha256(readFileSync(saved))).toBe(onDisk);

  // On a phone the card and its 64-character hash wrap instead of widening the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(suggested).toContainText(onDisk);
  await shot(page, "customer-390");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
