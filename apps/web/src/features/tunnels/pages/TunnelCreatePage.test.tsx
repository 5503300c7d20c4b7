// @vitest-environment jsdom
import { ErrorCode, NodesApi, TunnelsApi, VerifyApi, type VerifyState } from "@burrow/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { nodeSummary } from "@/testing/nodes";
import { ApiFailure, FakeApi, renderPage } from "@/testing/page-harness";
import { TunnelCreatePage } from "./TunnelCreatePage";

const node = nodeSummary();

const verified: VerifyState = {
  status: 1,
  real_name: "张*",
  id_number: null,
  reason: null,
  updated_at: null,
  required_for_tunnels: true,
  mode: "manual",
};

function api(verify: VerifyState = verified) {
  return new FakeApi()
    .on(NodesApi.getUserNode, { list: [node], total: 1, page: 1, size: 1000 })
    .on(VerifyApi.getUserVerify, verify);
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getAllByText("创建隧道").at(-1) as HTMLElement);

describe("TunnelCreatePage", () => {
  it("refuses what the contract refuses before sending, then sends the tunnel the form describes", async () => {
    const fake = api().on(TunnelsApi.postUserTun, () => ({ tun_id: 42 }));
    renderPage(<TunnelCreatePage />, fake, { path: "/tun/list/add", at: "/tun/list/add?node_id=7" });
    await screen.findByText(/上海一区/);
    type("隧道名称", "家里 nas");
    type("本地端口", "22");
    submit();
    // The contract's own rule and message (schemaRule), and nothing sent.
    expect(await screen.findByText("隧道名称只能包含文字、数字、下划线和短横线")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.postUserTun)).toHaveLength(0);

    type("隧道名称", "home-nas");
    submit();
    await waitFor(() => expect(fake.callsTo(TunnelsApi.postUserTun)).toHaveLength(1));
    expect(fake.callsTo(TunnelsApi.postUserTun)[0].body).toMatchObject({
      tun_name: "home-nas",
      node_id: 7,
      protocol: "tcp",
      local_ip: "127.0.0.1",
      local_port: 22,
    });
    // Created: on to the tunnel's page.
    await screen.findByTestId("navigated");
    expect(fake.unanswered).toEqual([]);
  });

  it("shows a plan limit as a refusal that leads to the store, and asks for verification when the site requires it", async () => {
    const fake = api({ ...verified, status: 0, real_name: null }).on(TunnelsApi.postUserTun, () => {
      throw new ApiFailure(403, ErrorCode.BusinessRefused, "当前套餐最多可创建 2 条隧道");
    });
    renderPage(<TunnelCreatePage />, fake, { path: "/tun/list/add", at: "/tun/list/add?node_id=7" });
    expect(await screen.findByText("请先完成实名认证")).toBeTruthy();
    await screen.findByText(/上海一区/);
    type("隧道名称", "web");
    type("本地端口", "8080");
    submit();
    expect(await screen.findByText("无法创建隧道")).toBeTruthy();
    expect(screen.getByText(/当前套餐最多可创建 2 条隧道/)).toBeTruthy();
    expect(screen.getByText("升级套餐").closest("a")?.getAttribute("href")).toBe("/purchase/plan");
  });
});
