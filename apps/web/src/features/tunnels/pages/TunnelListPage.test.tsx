// @vitest-environment jsdom
import { ErrorCode, NodesApi, TunnelStatus, TunnelsApi, type TunnelView } from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/format";
import { nodeSummary } from "@/testing/nodes";
import { ApiFailure, FakeApi, type FakeCall, renderPage } from "@/testing/page-harness";
import { TunnelListPage } from "./TunnelListPage";

const nodes = [
  nodeSummary({}),
  nodeSummary({ node_id: 8, name: "北京二区", area_name: "华北", host: "bj2.example.com" }),
];

const tunnel = (o: Partial<TunnelView>): TunnelView => ({
  tun_id: 1,
  tun_name: "home-nas",
  uid: 9,
  node_id: 7,
  node_name: "上海一区",
  protocol: "tcp",
  local_ip: "127.0.0.1",
  local_port: 22,
  remote_port: 20022,
  remote_port_end: null,
  custom_domains: [],
  subdomain: null,
  use_encryption: false,
  use_compression: false,
  bandwidth: 0,
  enabled: true,
  status: TunnelStatus.Connected,
  banned_reason: null,
  addon: {},
  proxy_protocol: "off",
  proxy_name: "u_9.t_1",
  addresses: ["sh1.example.com:20022"],
  traffic_in: 0,
  traffic_out: 0,
  today_in: 3 * 1024 * 1024,
  today_out: 2048,
  last_online_at: "2026-11-28T02:00:00.000Z",
  created_at: "2026-11-27T02:00:00.000Z",
  updated_at: "2026-11-28T02:00:00.000Z",
  schedule: null,
  schedule_note: null,
  ...o,
});
const nas = tunnel({ schedule_note: "将于 18:00 关闭" });
const web = tunnel({
  tun_id: 2,
  tun_name: "blog",
  protocol: "http",
  local_port: 8080,
  remote_port: null,
  subdomain: "blog",
  enabled: false,
  status: TunnelStatus.Offline,
  proxy_name: "u_9.t_2",
  addresses: ["http://blog.frp.example.com"],
  today_in: 0,
  today_out: 0,
});
const locked = tunnel({
  tun_id: 3,
  tun_name: "casino",
  status: TunnelStatus.Locked,
  banned_reason: "违规内容",
  proxy_name: "u_9.t_3",
  remote_port: 20023,
  addresses: ["sh1.example.com:20023"],
});

/** GET /user/tun filtered by name and status as the server does. */
function api(tunnels: TunnelView[] = [nas, web, locked]) {
  return new FakeApi()
    .on(NodesApi.getUserNode, { list: nodes, total: nodes.length, page: 1, size: 100 })
    .on(TunnelsApi.getUserTun, (c: FakeCall) => {
      const list = tunnels.filter(
        (t) =>
          (!c.query.name || t.tun_name.includes(c.query.name)) &&
          (!c.query.status || t.status === Number(c.query.status)),
      );
      return { list, total: list.length, page: 1, size: 10 };
    });
}
const show = (fake: FakeApi, at = "/tun/list") => renderPage(<TunnelListPage />, fake, { path: "/tun/list", at });
// By text, not role: jsdom computes every element's role and name for a role query (slow under load).
const row = async (name: string) => (await screen.findByText(name, { selector: "a" })).closest("tr") as HTMLElement;
const linkTo = (name: string) => screen.queryByText(name, { selector: "a" });
const popconfirm = async (title: string) =>
  (await screen.findAllByText(title)).at(-1)?.closest(".ant-popover") as HTMLElement;
const pick = async (scope: HTMLElement, label: string, option: string) => {
  fireEvent.mouseDown(within(scope).getByLabelText(label));
  const options = await screen.findAllByTitle(option);
  fireEvent.click(options.at(-1) as HTMLElement);
};

describe("TunnelListPage", () => {
  it("shows each tunnel's state, link, local service, addresses and today's traffic; a locked one offers nothing", async () => {
    const fake = api();
    show(fake);
    const first = await row("home-nas");
    expect(within(first).getByRole("link", { name: "home-nas" }).getAttribute("href")).toBe("/tun/list/1");
    expect(within(first).getByText("已连接")).toBeTruthy();
    expect(within(first).getByText("将于 18:00 关闭")).toBeTruthy();
    expect(within(first).getByText("127.0.0.1:22")).toBeTruthy();
    expect(within(first).getByText("sh1.example.com:20022")).toBeTruthy();
    expect(within(first).getByText(`${formatBytes(nas.today_in)} / ${formatBytes(nas.today_out)}`)).toBeTruthy();
    expect(within(first).getByRole("switch", { name: "启用 home-nas" }).getAttribute("aria-checked")).toBe("true");

    const second = await row("blog");
    expect(within(second).getByText("离线")).toBeTruthy();
    expect(within(second).getByText("已停用")).toBeTruthy();
    expect(within(second).getByText("http://blog.frp.example.com")).toBeTruthy();
    expect(within(second).getByRole("switch", { name: "启用 blog" }).getAttribute("aria-checked")).toBe("false");

    const third = await row("casino");
    expect(within(third).getByText("已锁定")).toBeTruthy();
    expect((within(third).getByRole("switch", { name: "启用 casino" }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(third).getByRole("button", { name: "迁移" }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(third).getByRole("button", { name: "删除" }) as HTMLButtonElement).disabled).toBe(true);
    expect(fake.unanswered).toEqual([]);
  });

  it("filters by name and status from the search card: the query sent and only the matches shown", async () => {
    const fake = api();
    show(fake);
    await row("casino");
    fireEvent.change(screen.getByLabelText("隧道名称"), { target: { value: " o " } });
    const card = document.querySelector(".search-card") as HTMLElement;
    await pick(card, "状态", "离线");
    fireEvent.click(within(card).getByRole("button", { name: /查\s*询/ }));
    await waitFor(() => expect(linkTo("casino")).toBeNull());
    expect(await row("blog")).toBeTruthy();
    expect(linkTo("home-nas")).toBeNull();
    expect(fake.callsTo(TunnelsApi.getUserTun).at(-1)?.query).toEqual({
      page: "1",
      size: "10",
      name: "o",
      status: String(TunnelStatus.Offline),
    });
  });

  it("opens with the URL's filters in the form and the query", async () => {
    const fake = api();
    show(fake, "/tun/list?name=nas&status=1");
    expect(await row("home-nas")).toBeTruthy();
    expect(linkTo("blog")).toBeNull();
    expect((screen.getByLabelText("隧道名称") as HTMLInputElement).value).toBe("nas");
    expect(fake.callsTo(TunnelsApi.getUserTun)[0].query).toMatchObject({ name: "nas", status: "1" });
  });

  it("turns a tunnel off with PATCH enabled and shows a refusal", async () => {
    let refuse = false;
    const fake = api().on(TunnelsApi.patchUserTun, (c) => {
      if (refuse) throw new ApiFailure(403, ErrorCode.BusinessRefused, "当前套餐最多启用 2 条隧道");
      return { ...nas, ...(c.body as object) };
    });
    show(fake);
    fireEvent.click(within(await row("home-nas")).getByRole("switch", { name: "启用 home-nas" }));
    expect(await screen.findByText("隧道「home-nas」已停用")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.patchUserTun)[0].body).toEqual({ tun_id: 1, enabled: false });

    refuse = true;
    fireEvent.click(within(await row("blog")).getByRole("switch", { name: "启用 blog" }));
    expect(await screen.findByText("当前套餐最多启用 2 条隧道")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.patchUserTun)[1].body).toEqual({ tun_id: 2, enabled: true });
  });

  it("deletes a tunnel only after its confirm, then reads the list again", async () => {
    const fake = api().on(TunnelsApi.deleteUserTun, null);
    show(fake);
    fireEvent.click(within(await row("blog")).getByRole("button", { name: "删除" }));
    const confirm = await popconfirm("删除隧道「blog」？");
    fireEvent.click(within(confirm).getByRole("button", { name: "取消" }));
    expect(fake.callsTo(TunnelsApi.deleteUserTun)).toHaveLength(0);

    fireEvent.click(within(await row("blog")).getByRole("button", { name: "删除" }));
    fireEvent.click(within(await popconfirm("删除隧道「blog」？")).getByRole("button", { name: "删除" }));
    await waitFor(() => expect(fake.callsTo(TunnelsApi.deleteUserTun)).toHaveLength(1));
    expect(fake.callsTo(TunnelsApi.deleteUserTun)[0].body).toEqual({ tun_id: 2 });
    expect(await screen.findByText("隧道已删除")).toBeTruthy();
    await waitFor(() => expect(fake.callsTo(TunnelsApi.getUserTun)).toHaveLength(2));
  });

  it("runs a batch action on the selected tunnels and names the ones refused", async () => {
    const fake = api().on(TunnelsApi.postUserTunBatch, {
      done: [1],
      failed: [{ tun_id: 3, code: ErrorCode.BusinessRefused, msg: "隧道已被锁定" }],
    });
    show(fake);
    await row("casino");
    fireEvent.click(screen.getByLabelText("选择 home-nas"));
    fireEvent.click(screen.getByLabelText("选择 casino"));
    expect(await screen.findByText("已选择 2 条隧道")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "批量停用" }));
    expect(await screen.findByText("已停用 1 条；1 条未停用：casino（隧道已被锁定）")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.postUserTunBatch)[0].body).toEqual({ tun_ids: [1, 3], action: "disable" });
    // done: the selection is cleared
    await waitFor(() => expect(screen.queryByText(/已选择 \d+ 条隧道/)).toBeNull());
  });

  it("moves a tcp tunnel to another node that serves its protocol, a blank port meaning any free one", async () => {
    const fake = api().on(TunnelsApi.postUserTunMove, (c) => ({ ...nas, ...(c.body as object) }));
    show(fake);
    fireEvent.click(within(await row("home-nas")).getByRole("button", { name: "迁移" }));
    const modal = (await screen.findByText("迁移隧道「home-nas」")).closest(".ant-modal") as HTMLElement;
    fireEvent.mouseDown(within(modal).getByLabelText("目标节点"));
    // its own node is not offered
    expect(await screen.findByTitle("北京二区（华北）")).toBeTruthy();
    expect(screen.queryByTitle("上海一区（华东）")).toBeNull();
    fireEvent.click(screen.getByTitle("北京二区（华北）"));
    fireEvent.click(within(modal).getByRole("button", { name: "迁移" }));
    await waitFor(() => expect(fake.callsTo(TunnelsApi.postUserTunMove)).toHaveLength(1));
    expect(fake.callsTo(TunnelsApi.postUserTunMove)[0].body).toEqual({ tun_id: 1, node_id: 8, remote_port: 0 });
    expect(await screen.findByText("隧道已迁移，请重新下载配置文件并重启 frpc")).toBeTruthy();
  });
});
