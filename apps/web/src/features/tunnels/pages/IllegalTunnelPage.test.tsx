// @vitest-environment jsdom
import {
  ErrorCode,
  type IllegalFlagRow,
  type IllegalRuleRow,
  IllegalStatus,
  Role,
  TunnelStatus,
  TunnelsApi,
  type UserInfo,
  UsersApi,
} from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiFailure, FakeApi, renderPage } from "@/testing/page-harness";
import { IllegalTunnelPage } from "./IllegalTunnelPage";

const manager = { uid: 1, role: Role.Manager, personal_info: { avatar: "", phone_number: "" } };
const flag: IllegalFlagRow = {
  id: 7,
  tun_id: 42,
  tun_name: "casino-web",
  tun_status: TunnelStatus.Connected,
  protocol: "http",
  addresses: ["casino.example.com"],
  uid: 9,
  phone: "13800000009",
  node_id: 1,
  node_name: "上海一区",
  source: "rule",
  rule_id: 3,
  reason: "命中关键词 casino",
  reporter: "",
  status: IllegalStatus.Pending,
  created_at: "2026-11-27T02:00:00.000Z",
  handled_at: null,
  handled_by: null,
};
const page = <T,>(list: T[]) => ({ list, total: list.length, page: 1, size: 10 });

/** The admin API this page meets, as a manager (who may write). */
const api = (role: number = Role.Manager) =>
  new FakeApi()
    .on(UsersApi.getUserUserInfo, { ...manager, role } as unknown as UserInfo)
    .on(TunnelsApi.getSuperTunIllegal, page([flag]))
    .on(TunnelsApi.getSuperTunIllegalRule, page<IllegalRuleRow>([]));

const dialog = async (title: string) => {
  const titleEl = await screen.findByText(title);
  return titleEl.closest(".ant-modal") as HTMLElement;
};
/** The page's own button with this text (a closed modal's footer is rendered too, off the page's flow). */
const pageButton = async (text: string) => {
  await screen.findAllByText(text);
  return screen.queryAllByText(text).filter((el) => !el.closest(".ant-modal"));
};
const click = (scope: HTMLElement, text: string) =>
  fireEvent.click(within(scope).getByText(text).closest("button") as HTMLElement);

describe("IllegalTunnelPage", () => {
  it("bans a flagged tunnel with the reason the operator gives, and asks for one when it is cleared", async () => {
    const fake = api().on(TunnelsApi.patchSuperTunIllegal, null);
    renderPage(<IllegalTunnelPage />, fake, { path: "/admin/tun/illegal" });
    await screen.findByText("casino-web");
    const [ban] = await pageButton("封禁");
    fireEvent.click(ban.closest("button") as HTMLElement);
    const modal = await dialog("封禁隧道");
    const reason = within(modal).getByLabelText("锁定原因") as HTMLTextAreaElement;
    // opens with the flag's own reason, which the operator may replace
    await waitFor(() => expect(reason.value).toBe("命中关键词 casino"));
    fireEvent.change(reason, { target: { value: "" } });
    click(modal, "封禁");
    expect(await within(modal).findByText("请输入锁定原因")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.patchSuperTunIllegal)).toHaveLength(0);

    fireEvent.change(reason, { target: { value: "  赌博网站  " } });
    click(modal, "封禁");
    await waitFor(() => expect(fake.callsTo(TunnelsApi.patchSuperTunIllegal)).toHaveLength(1));
    expect(fake.callsTo(TunnelsApi.patchSuperTunIllegal)[0].body).toEqual({
      id: 7,
      action: "ban",
      banned_reason: "赌博网站",
    });
    // the list is read again to show the flag handled
    await waitFor(() => expect(fake.callsTo(TunnelsApi.getSuperTunIllegal).length).toBeGreaterThan(1));
    expect(fake.unanswered).toEqual([]);
  });

  it("adds a port rule and shows the server's refusal on the field it names", async () => {
    let refused = false;
    const fake = api().on(TunnelsApi.postSuperTunIllegalRule, () => {
      if (!refused) {
        refused = true;
        throw new ApiFailure(400, ErrorCode.InvalidParams, "value: 端口规则应为 22 或 6000-6100", {
          field: "value",
        });
      }
      return null;
    });
    renderPage(<IllegalTunnelPage />, fake, { path: "/admin/tun/illegal", at: "/admin/tun/illegal?tab=rules" });
    const [add] = await pageButton("新增规则");
    fireEvent.click(add.closest("button") as HTMLElement);
    const modal = await dialog("新增检测规则");
    fireEvent.click(within(modal).getByLabelText("端口"));
    fireEvent.change(within(modal).getByLabelText("规则"), { target: { value: "22-x" } });
    click(modal, "保存");
    expect(await within(modal).findByText("端口规则应为 22 或 6000-6100")).toBeTruthy();
    expect(fake.callsTo(TunnelsApi.postSuperTunIllegalRule)[0].body).toEqual({ kind: "port", value: "22-x", note: "" });

    fireEvent.change(within(modal).getByLabelText("规则"), { target: { value: " 6000-6100 " } });
    fireEvent.change(within(modal).getByLabelText("备注"), { target: { value: "矿池" } });
    click(modal, "保存");
    await waitFor(() => expect(fake.callsTo(TunnelsApi.postSuperTunIllegalRule)).toHaveLength(2));
    expect(fake.callsTo(TunnelsApi.postSuperTunIllegalRule)[1].body).toEqual({
      kind: "port",
      value: "6000-6100",
      note: "矿池",
    });
    expect(fake.unanswered).toEqual([]);
  });

  it("offers support staff no ban, ignore or close on a flag (they read, managers write)", async () => {
    renderPage(<IllegalTunnelPage />, api(Role.Support), { path: "/admin/tun/illegal" });
    expect(await screen.findByText("casino-web")).toBeTruthy();
    expect(await pageButton("casino-web")).toHaveLength(1);
    expect(screen.queryAllByText(/^(封禁|忽略|关闭记录)$/).filter((el) => !el.closest(".ant-modal"))).toEqual([]);
  });
});
