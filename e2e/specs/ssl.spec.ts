import { DomainsApi, NodesApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { defaultArea, levelByName, uniqueName } from "../fixtures/catalog";
import { watchCsp } from "../fixtures/csp";
import { setCname, setTxt } from "../fixtures/dns";

test("a customer issues a certificate from the ACME CA for a verified domain and downloads the full chain", async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A node with a subdomain host, and a customer domain verified on it through the test DNS server.
  const admin = await adminToken();
  const node = await call(NodesApi.postSuperNode, {
    token: admin,
    body: {
      name: uniqueName("证书节点"),
      area_id: (await defaultArea(admin)).area_id,
      net_type_id: 1,
      level_id: (await levelByName(admin, "免费版")).id,
      host: "203.0.113.20",
      subdomain_host: `${uniqueName("frp")}.e2e.test`,
      vhost_http_port: 80,
      vhost_https_port: 443,
      port_min: 31000,
      port_max: 31100,
      api_addr: "http://127.0.0.1:9",
    },
  });
  const user = await registerUser();
  const domain = `${uniqueName("www")}.e2e-ssl.test`;
  const added = await call(DomainsApi.postUserDomain, { token: user.token, body: { domain, node_id: node.node_id } });
  for (const r of added.records) {
    if (r.type === "TXT") await setTxt(r.host, r.value);
    if (r.type === "CNAME") await setCname(r.host, r.value);
  }
  expect((await call(DomainsApi.postUserDomainVerify, { token: user.token, body: { id: added.id } })).ok).toBe(true);

  const csp = await watchCsp(page);
  await openSignedIn(page, user.token, "/ssl");
  await expect(page.getByRole("heading", { name: "SSL 证书" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("还没有证书")).toBeVisible();
  await expect(page.getByText("在 frpc 中使用证书")).toBeVisible();

  // Ask for a certificate with DNS-01: the page shows the TXT record to create.
  await page.getByRole("button", { name: "申请免费证书" }).click();
  const dialog = page.getByRole("dialog", { name: "申请免费证书" });
  await chooseOption(page, dialog.getByRole("combobox", { name: "域名" }), domain);
  await expect(dialog.getByRole("radio", { name: /DNS 验证/ })).toBeChecked();
  await dialog.getByRole("button", { name: "开始申请" }).click();
  await expect(dialog).toBeHidden();
  const progress = page.locator('[data-testid^="ssl-order-"]').first();
  await expect(progress.getByText(`_acme-challenge.${domain}`, { exact: true })).toBeVisible();
  const value = (await progress.getByTestId("ssl-record-value").innerText()).trim();
  expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // Checking before the record exists says what the look-up found.
  await progress.getByRole("button", { name: "立即检测" }).click();
  await expect(progress.getByText(/尚未检测到正确的 TXT 记录.*没有查到任何 TXT 记录/)).toBeVisible();

  // The record appears; the background job sees it and the page follows the steps to the end.
  await setTxt(`_acme-challenge.${domain}`, value);
  await expect(progress.getByText(/证书已签发，到期时间/)).toBeVisible({ timeout: 45_000 });
  for (const step of ["等待验证记录生效", "证书颁发机构验证中", "签发证书中", "已签发"])
    await expect(progress.locator(".ant-steps-item-finish").getByText(step, { exact: true })).toBeVisible();

  // The certificate is listed with its issuer and expiry; the full chain downloads.
  const row = page.getByRole("row").filter({ hasText: domain }).filter({ hasText: "自动签发" });
  await expect(row).toContainText("Pebble Intermediate CA");
  await expect(row).toContainText(/剩余 \d+ 天/);
  await row.getByRole("button", { name: "下载" }).hover();
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "完整证书链（fullchain.pem）" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(`${domain}-fullchain.pem`);
  const path = await file.path();
  const { readFileSync } = await import("node:fs");
  const pem = readFileSync(path, "utf8");
  expect(pem.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(2);

  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});
