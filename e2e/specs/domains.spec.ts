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

test("a customer verifies a domain against DNS and serves a tunnel on it until an operator unbinds it", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminToken();
  const { name: nodeName, node } = await webNode(admin, {
    prefix: "e2e-web-",
    host: "203.0.113.20",
    subdomain_host: "edge.burrow-e2e.example",
    port_min: 31000,
  });
  const domain = `${uniqueName("shop")}.example.com`;
  const user = await registerUser();
  const { frp_token } = await call(UsersApi.getUserUserInfo, { token: user.token });
  const customerContext = await browser.newContext();
  const adminContext = await browser.newContext();
  try {
    // ---- The customer adds the domain on /domain and is shown the records to create.
    const page = await customerContext.newPage();
    const dialog = await addDomainDialog(page, user.token);
    await dialog.getByLabel("域名").fill(domain);
    await chooseOption(page, dialog.getByLabel("解析到的节点"), `${nodeName}（默认地区）`);
    await dialog.getByRole("button", { name: "添加" }).click();
    await expect(page.getByText("域名已添加")).toBeVisible();
    // the row itself (its detail row, once open, names the domain too)
    const row = page.locator("tr.ant-table-row", { hasText: domain });
    await expect(row).toContainText("待验证");
    // the records to create are long: at this width they are in the row's detail
    const detail = await openDetail(row);
    await expect(detail).toContainText(`_burrow-challenge.${domain}`);
    await expect(detail).toContainText("edge.burrow-e2e.example");

    // ---- Verifying before the records exist says which ones are missing.
    await row.getByRole("button", { name: "验证" }).click();
    await expect(page.getByText(`缺少 TXT 记录：_burrow-challenge.${domain}`).first()).toBeVisible();
    await expect(row).toContainText("待验证");

    // ---- The customer creates the records at "their DNS provider" (the test DNS server) and verifies.
    const mine = await call(DomainsApi.getUserDomain, { token: user.token });
    const view = mine.list.find((d) => d.domain === domain);
    if (!view) throw new Error("the added domain is not listed");
    const txt = view.records.find((r) => r.type === "TXT");
    expect(txt?.value).toBeTruthy();
    await expect(detail).toContainText(txt?.value ?? "");
    await setTxt(`_burrow-challenge.${domain}`, txt?.value ?? "");
    await setCname(domain, "edge.burrow-e2e.example");
    await row.getByRole("button", { name: "验证" }).click();
    await expect(page.getByText(`${domain} 验证成功`)).toBeVisible();
    await expect(row).toContainText("已验证");
    await expect(row).toContainText("记录正确");

    // ---- The customer binds it to an http tunnel on that node.
    const tunName = uniqueName("web-");
    const tunId = await createHttpTunnel(page, { name: tunName, nodeName, domain });
    await page.goto("/domain");
    await expect(await openDetail(row)).toContainText(tunName, { timeout: 30_000 });

    // ---- frps's NewProxy for the tunnel is allowed.
    expect((await newProxy(node, user.uid, frp_token, tunId, [domain])).reject).toBe(false);

    // ---- The operator finds it on /admin/tun/domain and force-unbinds it with a reason.
    const op = await adminContext.newPage();
    const opRow = await operatorSeesDomain(op, admin, { query: domain, domain, phone: user.phone, tunName });
    await opRow.getByRole("button", { name: "强制解绑" }).click();
    const unbind = op.getByRole("dialog", { name: "强制解绑域名" });
    await unbind.getByRole("button", { name: "解绑" }).click();
    await expect(unbind.getByText("请输入解绑原因")).toBeVisible();
    const reason = "域名持有人投诉，已核实";
    await unbind.getByLabel("解绑原因").fill(reason);
    await unbind.getByRole("button", { name: "解绑" }).click();
    await expect(op.getByText("域名已解绑")).toBeVisible();
    await expect(opRow).toContainText("已解绑");
    await expect(opRow).toContainText(reason);

    // ---- The tunnel's next NewProxy is refused; the customer sees why.
    const refused = await newProxy(node, user.uid, frp_token, tunId, [domain]);
    expect(refused.reject).toBe(true);
    expect(refused.reject_reason).toContain("未验证或已被解绑");
    await page.reload();
    await expect(row).toContainText("已解绑", { timeout: 30_000 });
    await expect(row).toContainText(`已被管理员解绑：${reason}`);
  } finally {
    await customerContext.close();
    await adminContext.close();
  }
});
