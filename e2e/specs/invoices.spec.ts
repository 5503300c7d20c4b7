import { readFileSync } from "node:fs";
import { OrdersApi, usccCheckChar } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

/** A tiny valid PDF (one empty page), its xref offsets computed so that readers accept it. */
function tinyPdf(text: string): Buffer {
  const objects = [
    "<</Type/Catalog/Pages 2 0 R>>",
    "<</Type/Pages/Kids[3 0 R]/Count 1>>",
    "<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 120]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>",
    `<</Length ${`BT /F1 14 Tf 20 60 Td (${text}) Tj ET`.length}>>stream\nBT /F1 14 Tf 20 60 Td (${text}) Tj ET\nendstream`,
    "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj${o}endobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

test("a customer requests an invoice for an online payment; the operator issues it with a PDF; the customer downloads it", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // --- A customer recharges ¥36.00 online through the sandbox gateway.
  const customer = await registerUser();
  const order = await call(OrdersApi.postUserOrder, {
    token: customer.token,
    body: { type: 1, amount: 3600, pay_method: 2 },
  });
  const page = await browser.newPage();
  const csp = await watchCsp(page);
  await openSignedIn(page, customer.token, "/dashboard");
  await page.goto(order.pay_url ?? "");
  await page.getByRole("button", { name: "确认支付" }).click();
  await expect(page.getByText("支付成功")).toBeVisible();

  // --- It asks for a company invoice; a mistyped tax number is caught by its check character.
  await page.goto("/dashboard");
  await sider(page).getByRole("menuitem", { name: "发票" }).click();
  await expect(page).toHaveURL(/\/invoice$/);
  await page.getByRole("button", { name: "申请发票" }).click();
  const dialog = page.getByRole("dialog", { name: "申请发票" });
  const row = dialog.getByRole("row", { name: new RegExp(order.trade_id) });
  await expect(row).toContainText("¥36.00");
  await row.getByRole("checkbox").check();
  await expect(dialog.getByText("已选 1 笔，开票金额")).toContainText("¥36.00");
  const first17 = "91110108551385082";
  const check = usccCheckChar(first17) ?? "";
  await dialog.getByLabel("发票抬头").fill("示例网络科技有限公司");
  await dialog.getByLabel("纳税人识别号").fill(`${first17}${check === "A" ? "B" : "A"}`);
  await dialog.getByLabel("接收邮箱").fill("finance@example.com");
  await dialog.getByRole("button", { name: "提交申请" }).click();
  await expect(dialog.getByText("统一社会信用代码校验位不正确")).toBeVisible();
  await dialog.getByLabel("纳税人识别号").fill(`${first17}${check}`);
  await dialog.getByRole("button", { name: "提交申请" }).click();
  await expect(page.getByText("发票申请已提交")).toBeVisible();
  const mine = page.getByRole("row", { name: /示例网络科技有限公司/ });
  await expect(mine).toContainText("待开具");
  await expect(mine).toContainText("¥36.00");

  // --- The operator finds it in the queue and issues it with a PDF and its number.
  const admin = await browser.newPage();
  const adminCsp = await watchCsp(admin);
  await openSignedIn(admin, await adminToken(), "/admin/view");
  await sider(admin).getByRole("menuitem", { name: "发票管理" }).click();
  await expect(admin).toHaveURL(/\/admin\/invoice\/list$/);
  await admin.getByLabel("手机号").fill(customer.phone);
  await admin.getByRole("button", { name: "查询" }).click();
  const queued = admin.getByRole("row", { name: /示例网络科技有限公司/ });
  await expect(queued).toContainText("待开具");
  await queued.getByRole("button", { name: "开具" }).click();
  const issue = admin.getByRole("dialog", { name: /开具发票/ });
  // Not a PDF: refused by its bytes.
  await issue.locator('input[type="file"]').setInputFiles({
    name: "invoice.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("<html>not a pdf</html>"),
  });
  await expect(admin.getByText("文件不是有效的 PDF")).toBeVisible();
  const pdf = tinyPdf("Burrow invoice");
  await issue
    .locator('input[type="file"]')
    .setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(issue.getByText("已上传 PDF，重新上传会替换")).toBeVisible();
  await issue.getByLabel("发票号码").fill("24112000000012345678");
  await issue.getByRole("button", { name: "开具", exact: true }).click();
  await expect(admin.getByText("发票已开具")).toBeVisible();
  await expect(queued).toContainText("已开具");

  // --- The customer sees it issued and downloads the same PDF.
  await page.reload();
  await expect(page.getByText(/发票 #\d+ 已开具/)).toBeVisible({ timeout: 20_000 });
  await expect(mine).toContainText("已开具");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    mine.getByRole("button", { name: "下载发票" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^invoice-\d+\.pdf$/);
  expect(readFileSync(await download.path()).equals(pdf)).toBe(true);
  // The paid order is on a live invoice: it is not offered again.
  await page.getByRole("button", { name: "申请发票" }).click();
  await expect(page.getByRole("dialog", { name: "申请发票" }).getByText(order.trade_id)).toHaveCount(0);

  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
  expect(await adminCsp.violations()).toEqual([]);
  expect(adminCsp.pageErrors).toEqual([]);
  await admin.close();
  await page.close();
});
