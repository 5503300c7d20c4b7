import { DomainsApi, TunnelsApi, UsersApi } from "@burrow/contract";
import { expect as baseExpect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { uniqueName } from "../fixtures/catalog";
import { setCname, setTxt } from "../fixtures/dns";
import { createHttpTunnel, newProxy, webNode } from "../fixtures/domains";

// Each full page load fetches every chunk again; on a busy machine that takes longer than the default wait.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Adds `domain` for the customer, publishes the records Burrow asks for, verifies. */
async function prove(token: string, domain: string, nodeId: number, cnameHost: string): Promise<void> {
  const added = await call(DomainsApi.postUserDomain, { token, body: { domain, node_id: nodeId } });
  const txt = added.records.find((r) => r.type === "TXT");
  await setTxt(txt?.host ?? "", txt?.value ?? "");
  await setCname(cnameHost, "exact.burrow-e2e.example");
  const v = await call(DomainsApi.postUserDomainVerify, { token, body: { id: added.id } });
  expect(v.ok).toBe(true);
}

test("the exact owner binds a name a wildcard tunnel used; the wildcard holder's 连接诊断 says so", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminToken();
  const { name: nodeName, node } = await webNode(admin, {
    prefix: "e2e-exact-",
    host: "203.0.113.22",
    subdomain_host: "exact.burrow-e2e.example",
    port_min: 31400,
  });
  const apex = `${uniqueName("zone")}.example.com`;
  const shop = `shop.${apex}`;
  // a: *.<apex> and a tunnel on shop.<apex> through it
  const a = await registerUser();
  await prove(a.token, `*.${apex}`, node.node_id, `_burrow-probe.${apex}`);
  const aTun = await call(TunnelsApi.postUserTun, {
    token: a.token,
    body: {
      tun_name: uniqueName("wild-"),
      protocol: "http",
      local_port: 80,
      node_id: node.node_id,
      custom_domains: [shop],
    },
  });
  // b: shop.<apex> exactly
  const b = await registerUser();
  const { frp_token } = await call(UsersApi.getUserUserInfo, { token: b.token });
  await prove(b.token, shop, node.node_id, shop);

  const bContext = await browser.newContext();
  const aContext = await browser.newContext();
  try {
    // b creates a tunnel on it in the form: no 已被占用
    const page = await bContext.newPage();
    await openSignedIn(page, b.token, "/tun/list");
    const bTunId = await createHttpTunnel(page, { name: uniqueName("exact-"), nodeName, domain: shop });
    expect((await newProxy(node, b.uid, frp_token, bTunId, [shop])).reject).toBe(false);

    // a's tunnel lost the name; its 连接诊断 says why and offers the config again
    const aPage = await aContext.newPage();
    await openSignedIn(aPage, a.token, `/tun/list/${aTun.tun_id}`);
    const doctor = aPage.locator(".tunnel-doctor-card");
    const row = doctor.getByRole("row", {
      name: new RegExp(`域名 ${shop.replace(/\./g, "\\.")} 已由其他用户单独验证`),
    });
    await expect(row).toContainText("域名移除");
    await expect(row).toContainText(`泛域名 *.${apex} 不再覆盖它`);
    await expect(row.getByRole("button", { name: "重新下载配置" })).toBeVisible();
    await doctor.screenshot({ path: test.info().outputPath("exact-owner-doctor.png") });
    const after = await call(TunnelsApi.getUserTunTunid, { token: a.token, params: { tunid: aTun.tun_id } });
    expect(after.custom_domains).toEqual([]);
  } finally {
    await bContext.close();
    await aContext.close();
  }
});
