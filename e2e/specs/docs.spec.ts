import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DomainsApi, NodesApi } from "@burrow/contract";
import { expect, type Page, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { createTunnelApi, defaultArea, levelByName, localNode, uniqueName } from "../fixtures/catalog";
import { REPO_ROOT } from "../fixtures/env";

/*
 * /doc names console pages (as links) and console controls (in 「」, the docs' convention for a
 * button, switch, field or card of the console; anything else — Windows' “任务计划程序” — is in
 * “”). Every page named must open for a customer, and every control must be where the docs send
 * the customer (issue 35 §12: the docs named 「新建隧道」 and 「配置文件」, which do not exist).
 */

const DOCS_DIR = path.join(REPO_ROOT, "packages/contract/src/docs");

/** The docs' prose: fenced and inline code left out (they quote configs and logs, not the console). */
const docs = readdirSync(DOCS_DIR)
  .filter((f) => f.endsWith(".md"))
  .map((file) => ({
    file,
    prose: readFileSync(path.join(DOCS_DIR, file), "utf8")
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, ""),
  }));

const named = (re: RegExp) =>
  [...new Set(docs.flatMap((d) => [...d.prose.matchAll(re)].map((m) => m[1])))].sort((a, b) => a.localeCompare(b));
/** Console pages the docs link to (the docs' own pages are checked by the web unit test). */
const pages = named(/\]\((\/(?!doc\b)[^)#\s]*)[^)]*\)/g);
/** Console controls the docs name. */
const controls = named(/「([^」]+)」/g);

type Place = "tunnelList" | "tunnelDetail" | "tunnelForm" | "httpTunnelForm" | "account" | "domains";

/** Where each control the docs name is found (a control the docs name must be listed here). */
const WHERE: Record<string, Place> = {
  创建隧道: "tunnelList",
  详情: "tunnelList",
  启用: "tunnelList",
  "frpc 配置": "tunnelDetail",
  下载配置: "tunnelDetail",
  加密传输: "tunnelForm",
  压缩传输: "tunnelForm",
  自定义域名: "httpTunnelForm",
  子域名: "httpTunnelForm",
  一键启动: "tunnelDetail",
  "frp 访问密钥": "account",
  启动令牌: "account",
  重置密钥: "account",
  添加域名: "domains",
  验证: "domains",
};

/** A control by what the customer reads on it: a button, link, switch, field label or card title. */
const control = (page: Page, name: string) =>
  page
    .getByRole("button", { name, exact: true })
    .or(page.getByRole("link", { name, exact: true }))
    .or(page.getByLabel(name, { exact: true }))
    .or(page.getByText(name, { exact: true }))
    .first();

test("the docs name only pages and controls that exist", async ({ page }) => {
  test.setTimeout(120_000);
  expect(pages.length).toBeGreaterThan(3);
  expect(controls.length).toBeGreaterThan(3);
  expect(
    controls.filter((c) => !(c in WHERE)),
    "controls named in /doc with no known place in the console",
  ).toEqual([]);

  const admin = await adminToken();
  const customer = await registerUser();
  const tunnel = await createTunnelApi(customer.token, (await localNode(customer.token)).node_id, uniqueName("doc-"));
  // A verified-domain flow needs an http node (the seed's local node has none): 验证 is on a domain's row.
  const webNode = await call(NodesApi.postSuperNode, {
    token: admin,
    body: {
      name: uniqueName("doc-web-"),
      area_id: (await defaultArea(admin)).area_id,
      net_type_id: 1,
      level_id: (await levelByName(admin, "免费版")).id,
      host: "203.0.113.30",
      vhost_http_port: 80,
      subdomain_host: "doc.burrow-e2e.example",
      port_min: 32000,
      port_max: 32100,
      api_addr: "http://127.0.0.1:9",
    },
  });
  await call(DomainsApi.postUserDomain, {
    token: customer.token,
    body: { domain: `${uniqueName("doc")}.example.com`, node_id: webNode.node_id },
  });

  const open: Record<Place, () => Promise<void>> = {
    tunnelList: () => go("/tun/list", "隧道列表"),
    tunnelDetail: () => go(`/tun/list/${tunnel.tun_id}`, `隧道详情 · ${tunnel.tun_name}`),
    tunnelForm: () => go("/tun/list/add", "创建隧道"),
    httpTunnelForm: async () => {
      await go("/tun/list/add", "创建隧道");
      await page
        .locator("label.ant-radio-button-wrapper")
        .filter({ hasText: /^HTTP$/ })
        .click();
    },
    account: () => go("/account/info", "个人中心"),
    domains: () => go("/domain", "我的域名"),
  };
  async function go(to: string, heading: string) {
    await page.goto(to);
    await expect(page.getByRole("heading", { name: heading, level: 3 })).toBeVisible();
  }

  await openSignedIn(page, customer.token, "/doc");
  await expect(page.getByRole("heading", { name: "使用文档", level: 3 })).toBeVisible();
  for (const to of pages) {
    await page.goto(to);
    // Neither /403 (not in the customer's menu) nor the not-found page: the page itself, at its address.
    await expect(page.getByRole("main").getByRole("heading", { level: 3 }).first(), to).toBeVisible({
      timeout: 20_000,
    });
    expect(new URL(page.url()).pathname, to).toBe(to);
  }
  for (const [name, place] of Object.entries(WHERE).filter(([n]) => controls.includes(n))) {
    await open[place]();
    await expect(control(page, name), `「${name}」 on ${place}`).toBeVisible();
  }
  // 下载配置 saves the file the docs describe (frpc_t<编号>.toml, to be named frpc.toml).
  await open.tunnelDetail();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "下载配置" }).click();
  expect((await download).suggestedFilename()).toBe(`frpc_t${tunnel.tun_id}.toml`);
});

for (const vp of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`/doc reads at ${vp.width}×${vp.height}: contents, search and a page without sideways scrolling`, async ({
    page,
  }) => {
    const customer = await registerUser();
    await page.setViewportSize(vp);
    await openSignedIn(page, customer.token, "/doc/getting-started");
    const article = page.getByRole("article", { name: "快速开始" });
    await expect(article).toContainText("「创建隧道」");
    await page.getByRole("searchbox", { name: "搜索文档" }).or(page.getByLabel("搜索文档")).fill("systemd");
    await page.getByRole("region", { name: "搜索结果" }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/doc\/linux#service$/);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1),
    ).toBe(false);
  });
}
