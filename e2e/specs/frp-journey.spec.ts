import { expect, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { uniqueName } from "../fixtures/catalog";
import {
  FrpcClient,
  FrpsSim,
  frpsOptionsFromToml,
  parseFrpcConfig,
  readClipboard,
  SIM_DASHBOARD,
} from "../fixtures/frp";

const clipboard = ["clipboard-read", "clipboard-write"];

test("a node added in the console carries a customer's tunnel until an operator locks it", async ({ browser }) => {
  // Two polls of the node and a few round trips through the simulator, then the switch to agent mode.
  test.setTimeout(180_000);
  const sim = new FrpsSim({
    webServer: { addr: "127.0.0.1", port: 0, user: SIM_DASHBOARD.user, password: SIM_DASHBOARD.password },
  });
  await sim.start();
  const nodeName = uniqueName("e2e-sh-");
  const adminContext = await browser.newContext({ permissions: clipboard });
  const customerContext = await browser.newContext({ permissions: clipboard });
  let client: FrpcClient | null = null;
  try {
    // ---- The operator adds the node through /admin/node and copies its frps.toml.
    const admin = await adminContext.newPage();
    await openSignedIn(admin, await adminToken(), "/admin/node");
    // A new context loads the whole console with a cold cache: its first page may take a while under load.
    await expect(admin.getByRole("heading", { name: "节点管理" })).toBeVisible({ timeout: 30_000 });
    await admin.getByRole("button", { name: "新增节点" }).click();
    const form = admin.getByRole("dialog", { name: "新增节点" });
    await form.getByLabel("节点名称").fill(nodeName);
    await chooseOption(admin, form.getByLabel("地区"), "默认地区");
    await chooseOption(admin, form.getByLabel("网络类型"), "host");
    await chooseOption(admin, form.getByLabel("最低等级"), "免费版（等级 1）");
    await form.getByLabel("公网地址").fill("127.0.0.1");
    await form.getByLabel("面板地址（webServer）").fill(sim.dashboardUrl);
    await form.getByLabel("面板用户名").fill(SIM_DASHBOARD.user);
    await form.getByLabel("面板密码").fill(SIM_DASHBOARD.password);
    // The simulated node runs beside the console: the single-machine set-up, frps calling it directly.
    await form.getByLabel("直连控制台").check();
    await form.getByRole("button", { name: "保存" }).click();
    await expect(admin.getByText("节点已添加")).toBeVisible();

    const nodeRow = admin.getByRole("row", { name: new RegExp(nodeName) });
    await nodeRow.getByRole("button", { name: "部署" }).click();
    const drawer = admin.getByRole("dialog", { name: `部署节点 · ${nodeName}` });
    await expect(drawer.getByRole("tab", { name: /Docker · host\s*推荐/ })).toHaveAttribute("aria-selected", "true");
    await expect(drawer.getByRole("region", { name: "安装脚本 Docker · host" })).toContainText("--network host");
    await drawer.getByRole("tab", { name: "frps.toml" }).click();
    await drawer.getByRole("button", { name: "复制 frps.toml" }).click();
    await expect(admin.getByText("已复制")).toBeVisible();
    const frpsToml = await readClipboard(admin);
    expect(frpsToml).toContain("[[httpPlugins]]");
    // The simulated frps runs with that file (its dashboard is already listening where the node points).
    const fromToml = frpsOptionsFromToml(frpsToml);
    Object.assign(sim.opts, { ...fromToml, webServer: sim.opts.webServer });
    expect(sim.opts.plugins?.[0]?.url).toMatch(/\/api\/frp\/plugin\/\d+\//);
    await drawer.getByRole("button", { name: "关闭" }).click();
    // 立即检测: the console polls the node's dashboard now and shows it online.
    await nodeRow.getByRole("button", { name: "检测" }).click();
    await expect(admin.getByText("节点在线，面板上有 0 个隧道")).toBeVisible();
    await expect(nodeRow).toContainText("在线");

    // ---- The customer creates a tcp tunnel on it and copies the frpc config.
    const user = await registerUser();
    const customer = await customerContext.newPage();
    await openSignedIn(customer, user.token, "/tun/list");
    await customer.getByRole("link", { name: "创建隧道" }).first().click({ timeout: 30_000 });
    await expect(customer).toHaveURL(/\/tun\/list\/add$/);
    await expect(customer.getByRole("heading", { name: "创建隧道" })).toBeVisible();
    const tunName = uniqueName("ssh-");
    await customer.getByLabel("隧道名称").fill(tunName);
    await chooseOption(customer, customer.getByLabel("节点"), nodeName);
    await expect(customer.getByRole("radio", { name: "TCP", exact: true })).toBeChecked();
    await customer.getByLabel("本地端口").fill("22");
    await expect(customer.getByRole("checkbox", { name: "随机端口" })).toBeChecked();
    await customer.getByRole("button", { name: "创建隧道" }).click();
    await expect(customer).toHaveURL(/\/tun\/list\/\d+$/);
    const tunId = Number(new URL(customer.url()).pathname.split("/").pop());
    await expect(customer.getByRole("heading", { name: `隧道详情 · ${tunName}` })).toBeVisible();
    await customer.getByRole("button", { name: `复制 frpc_t${tunId}.toml` }).click();
    const frpc = parseFrpcConfig(await readClipboard(customer));
    expect(frpc.user).toBe(`u_${user.uid}`);
    expect(frpc.proxies.map((p) => p.name)).toEqual([`t_${tunId}`]);
    // the frpc config card's tab (the 一键启动 card below has its own Linux tab)
    await customer.locator("#frpc-config").getByRole("tab", { name: "Linux" }).click();
    await expect(customer.getByRole("region", { name: "Linux 启动命令" })).toContainText(
      `./frpc -c ./frpc_t${tunId}.toml`,
    );

    // ---- frpc logs in through the simulator with that config: the tunnel is connected.
    client = new FrpcClient(sim, frpc, { timers: false });
    await client.start();
    expect(client.proxies.get(`t_${tunId}`)?.status).toBe("running");
    await customer.getByRole("link", { name: "返回列表" }).click();
    await expect(customer).toHaveURL(/\/tun\/list$/);
    await expect(customer.getByRole("heading", { name: "隧道列表" })).toBeVisible();
    const listRow = customer.getByRole("row", { name: new RegExp(tunName) });
    await expect(async () => {
      await customer.reload();
      await expect(listRow).toContainText("已连接", { timeout: 5_000 });
    }).toPass({ timeout: 20_000 });
    // the node's name is in the row's detail at this width (the address already says where it runs)
    await listRow.getByRole("button", { name: "展开行" }).click();
    await expect(customer.locator(".ant-table-expanded-row").filter({ hasText: nodeName })).toBeVisible();

    // ---- Visitors use it; the poller brings the traffic to /traffic.
    const visit = await client.visit(`t_${tunId}`, {
      bytesIn: 300 * 1024,
      bytesOut: 2 * 1024 * 1024,
      remoteAddr: "198.51.100.23:40001",
    });
    expect(visit.accepted).toBe(true);
    await customer.goto("/traffic");
    await expect(customer.getByRole("heading", { name: "流量统计" })).toBeVisible();
    const trafficRow = customer.getByRole("row", { name: new RegExp(tunName) });
    await expect(async () => {
      await customer.reload();
      await expect(trafficRow.first()).toContainText("2.00 MB", { timeout: 5_000 });
    }).toPass({ timeout: 40_000 });
    await expect(trafficRow.first()).toContainText("300.00 KB");
    // 每日明细 is a page of GET /user/traffic/rows (server paging): the day's row, and the page
    // size changer asks the server for that size.
    const rowsPath = "/api/user/traffic/rows";
    const rowsCall = customer.waitForResponse((r) => new URL(r.url()).pathname === rowsPath);
    await customer.reload();
    const firstPage = await (await rowsCall).json();
    expect(firstPage.data).toMatchObject({ total: 1, page: 1, size: 10 });
    expect(firstPage.data.list).toEqual([expect.objectContaining({ tun_id: tunId, tun_name: tunName })]);
    const detail = customer.locator(".ant-card").filter({ has: customer.getByText("每日明细", { exact: true }) });
    const dayRow = detail.getByRole("row", { name: new RegExp(tunName) });
    await expect(dayRow).toContainText(firstPage.data.list[0].date);
    await expect(dayRow).toContainText("2.00 MB");
    await expect(dayRow).toContainText("300.00 KB");
    await expect(detail).toContainText("共 1 条");
    const sized = customer.waitForResponse(
      (r) => new URL(r.url()).pathname === rowsPath && new URL(r.url()).searchParams.get("size") === "20",
    );
    await chooseOption(customer, detail.locator(".ant-pagination-options .ant-select"), "20 条/页");
    expect((await (await sized).json()).data).toMatchObject({ total: 1, page: 1, size: 20 });
    await expect(customer).toHaveURL(/[?&]size=20/);
    await expect(customer.getByRole("progressbar", { name: "流量使用进度" })).toBeVisible();

    // ---- The operator finds the visitor on /admin/tun/conns and the traffic on /admin/flow.
    await admin.goto("/admin/tun/conns");
    await admin.getByLabel("访客地址").fill("198.51.100.23");
    await admin.getByRole("button", { name: "查询" }).click();
    const connRow = admin.getByRole("row").filter({ hasText: "198.51.100.23" }).filter({ hasText: tunName });
    await expect(connRow).toBeVisible();
    await admin.goto(`/admin/flow?uid=${user.uid}`);
    // a full load of the page and its chart's chunk (the largest): more than the usual 8 s under load
    await expect(admin.getByRole("img", { name: "各节点流量" })).toBeVisible({ timeout: 20_000 });
    await expect(admin.getByRole("row", { name: new RegExp(nodeName) })).toContainText("2.00 MB");
    await expect(admin.getByRole("row", { name: new RegExp(user.phone) })).toContainText("300.00 KB");

    // ---- The operator locks it with a reason on /admin/tun.
    await admin.goto(`/admin/tun?phone=${user.phone}`);
    const adminRow = admin.getByRole("row", { name: new RegExp(tunName) });
    await expect(adminRow).toContainText("已连接");
    await adminRow.getByRole("button", { name: "锁定" }).click();
    const lock = admin.getByRole("dialog", { name: "锁定隧道" });
    await lock.getByRole("button", { name: "锁定" }).click();
    await expect(lock.getByText("请输入锁定原因")).toBeVisible();
    const reason = "端口扫描，违反服务条款";
    await lock.getByLabel("锁定原因").fill(reason);
    await lock.getByRole("button", { name: "锁定" }).click();
    await expect(admin.getByText("隧道已锁定")).toBeVisible();
    await expect(adminRow).toContainText("已锁定");
    await expect(adminRow).toContainText(reason);

    // ---- The simulator's next heartbeat is refused: the session is cut.
    expect(await client.heartbeat()).toBe(false);
    expect(client.lastError).toContain("已被锁定");
    expect(client.session).toBeNull();

    // ---- The customer sees 已锁定 with the reason.
    await customer.goto(`/tun/list/${tunId}`);
    await expect(customer.locator(".tunnel-info-card")).toContainText("已锁定");
    await expect(customer.getByRole("alert")).toContainText(reason);
    await expect(customer.getByRole("button", { name: "删除" })).toBeDisabled();

    // ---- The operator switches the node to agent mode (the production way) and sees the agent's installer.
    await admin.goto("/admin/node");
    const row = admin.getByRole("row", { name: new RegExp(nodeName) });
    await row.getByRole("button", { name: "编辑" }).click();
    const edit = admin.getByRole("dialog", { name: `编辑节点 · ${nodeName}` });
    await edit.getByLabel("节点代理（推荐）").check();
    await edit.getByRole("button", { name: "保存" }).click();
    await expect(admin.getByText("节点已保存")).toBeVisible();
    await row.getByRole("button", { name: "部署" }).click();
    const setup = admin.getByRole("dialog", { name: `部署节点 · ${nodeName}` });
    const installer = setup.getByRole("region", { name: "节点代理安装命令" });
    await expect(installer).toContainText("/download/agent/burrow-agent.mjs");
    await expect(installer).toContainText("/etc/burrow-agent.env");
    await expect(installer).toContainText("systemctl enable --now burrow-agent");
    await setup.getByRole("tab", { name: "frps.toml" }).click();
    await expect(setup.getByRole("region", { name: "frps.toml" })).toContainText('addr = "127.0.0.1:7300"');
  } finally {
    await client?.stop();
    await sim.stop();
    await adminContext.close();
    await customerContext.close();
  }
});
