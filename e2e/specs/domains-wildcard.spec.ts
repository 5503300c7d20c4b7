import { DomainsApi, UsersApi } from "@burrow/contract";
import { expect as baseExpect, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { uniqueName } from "../fixtures/catalog";
import { setCname, setTxt } from "../fixtures/dns";
import {
  addDomainDialog,
  createHttpTunnel,
  newProxy,
  openDetail,
  operatorSeesDomain,
  webNode,
} from "../fixtures/domains";

// Each full page load fetches every chunk again; on a busy machine that takes longer than the default wait.
const expect = baseExpect.configure({ timeout: 30_000 });

test("a customer adds *.<apex>, proves the apex by TXT, and serves a tunnel on it", async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await adminToken();
  const { name: nodeName, node } = await webNode(admin, {
    prefix: "e2e-wild-",
    host: "203.0.113.21",
    subdomain_host: "wild.burrow-e2e.example",
    port_min: 31200,
  });
  const apex = `${uniqueName("zone")}.example.com`;
  const wildcard = `*.${apex}`;
  const user = await registerUser();
  const { frp_token } = await call(UsersApi.getUserUserInfo, { token: user.token });
  const customerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    const page = await customerContext.newPage();
    const dialog = await addDomainDialog(page, user.token);
    // A double wildcard is refused in the form with the contract's words, before any request.
    await dialog.getByLabel("域名").fill("*.*.example.com");
    await expect(dialog.getByText("泛域名只能在最左边使用一个 *，例如 *.example.com")).toBeVisible();
    await dialog.getByLabel("域名").fill(wildcard);
    await chooseOption(page, dialog.getByLabel("解析到的节点"), `${nodeName}（默认地区）`);
    await dialog.getByRole("button", { name: "添加" }).click();
    await expect(page.getByText("域名已添加")).toBeVisible();
    const row = page.locator("tr.ant-table-row", { hasText: wildcard });
    await expect(row).toContainText("待验证");
    await expect(row).toContainText(`泛域名：可用于 ${apex} 下一级的任意子域名`);
    // The TXT record on the apex, the CNAME on the wildcard.
    const detail = await openDetail(row);
    await expect(detail).toContainText(`_burrow-challenge.${apex}`);
    await expect(detail.locator("code").filter({ hasText: wildcard })).not.toHaveCount(0);
    await expect(detail).toContainText("wild.burrow-e2e.example");
    await page.screenshot({ path: test.info().outputPath("domain-wildcard-pending.png"), fullPage: true });

    // Verifying before the records exist names the apex's TXT and the probe the CNAME is read through.
    await row.getByRole("button", { name: "验证" }).click();
    await expect(page.getByText(`缺少 TXT 记录：_burrow-challenge.${apex}`).first()).toBeVisible();
    await expect(page.getByText(`（以 _burrow-probe.${apex} 查询）`).first()).toBeVisible();

    // "Their DNS provider": the apex's TXT, and the wildcard CNAME as it answers the probe name.
    const view = (await call(DomainsApi.getUserDomain, { token: user.token })).list.find((d) => d.domain === wildcard);
    const token = view?.records.find((r) => r.type === "TXT")?.value ?? "";
    await expect(detail).toContainText(token);
    await setTxt(`_burrow-challenge.${apex}`, token);
    await setCname(`_burrow-probe.${apex}`, "wild.burrow-e2e.example");
    await row.getByRole("button", { name: "验证" }).click();
    await expect(page.getByText(`${wildcard} 验证成功`)).toBeVisible();
    await expect(row).toContainText("已验证");

    // A tunnel on the wildcard (the free plan allows one domain per tunnel).
    const tunName = uniqueName("wild-");
    const tunId = await createHttpTunnel(page, { name: tunName, nodeName, domain: wildcard });

    // The wildcard lists the tunnel; frps's NewProxy for it is allowed.
    await page.goto("/domain");
    await expect(await openDetail(row)).toContainText(tunName, { timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath("domain-wildcard-verified.png"), fullPage: true });
    expect((await newProxy(node, user.uid, frp_token, tunId, [wildcard])).reject).toBe(false);

    // The operator sees the wildcard, its owner and the tunnel.
    const op = await adminContext.newPage();
    await operatorSeesDomain(op, admin, { query: apex, domain: wildcard, phone: user.phone, tunName });
  } finally {
    await customerContext.close();
    await adminContext.close();
  }
});
