// @vitest-environment jsdom
import { LaunchApi, type LaunchCommands, type LaunchTokenView } from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { LaunchCard } from "./LaunchCard";
import { LaunchTokenCard } from "./LaunchTokenCard";

/** The server's commands for a token: each system's line carries it, as the real ones do. */
const commandsFor = (token: string): LaunchCommands => ({
  node_id: 4,
  node_name: "上海一号",
  missing: null,
  token_created_at: "2026-11-28T10:00:00.000Z",
  commands: {
    linux: `curl -fsSL 'https://c.example/launch/${token}/4/install.sh' | sudo sh`,
    openwrt: `wget -qO- 'https://c.example/launch/${token}/4/install.sh' | sh`,
    macos: `curl -fsSL 'https://c.example/launch/${token}/4/install.sh' | sudo sh`,
    windows: `irm 'https://c.example/launch/${token}/4/install.ps1' | iex`,
    docker: `S=$(curl -fsSL 'https://c.example/launch/${token}/4/start.sh') && docker run …`,
  },
});

describe("一键启动", () => {
  it("shows the node's command per system, and a rotation on the token card changes them", async () => {
    let token = "blAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const fake = new FakeApi()
      .on(LaunchApi.getUserLaunchCommands, () => commandsFor(token))
      .on(LaunchApi.getUserLaunch, (): LaunchTokenView => ({ token, created_at: "2026-11-28T10:00:00.000Z" }))
      .on(LaunchApi.postUserLaunch, (): LaunchTokenView => {
        token = "blBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
        return { token, created_at: "2026-11-28T11:00:00.000Z" };
      });
    renderPage(
      <>
        <LaunchCard nodeId={4} />
        <LaunchTokenCard />
      </>,
      fake,
    );
    const linux = await screen.findByRole("region", { name: "Linux 安装命令" });
    expect(within(linux).getByText(/launch\/blAAAA/)).toBeTruthy();
    expect(screen.getByText(/节点「上海一号」/)).toBeTruthy();
    expect(fake.callsTo(LaunchApi.getUserLaunchCommands)[0].query).toEqual({ node_id: "4" });
    fireEvent.click(screen.getByRole("tab", { name: "Windows" }));
    const windows = await screen.findByRole("region", { name: "Windows 安装命令" });
    expect(within(windows).getByText(/\| iex$/)).toBeTruthy();
    expect(screen.getByText(/以管理员身份运行/)).toBeTruthy();

    // the token card shows it masked; 更换 asks first, then every command shows the new token
    expect(screen.getByTestId("launch-token").textContent).toBe("blAA••••••••AAAA");
    fireEvent.click(screen.getByText("更换令牌").closest("button") as HTMLElement);
    fireEvent.click(await screen.findByText("更换", { selector: "button span" }));
    await waitFor(() => expect(fake.callsTo(LaunchApi.postUserLaunch)).toHaveLength(1));
    fireEvent.click(screen.getByRole("tab", { name: "Linux" }));
    await waitFor(() =>
      expect(within(screen.getByRole("region", { name: "Linux 安装命令" })).getByText(/launch\/blBBBB/)).toBeTruthy(),
    );
    expect(screen.getByTestId("launch-token").textContent).toBe("blBB••••••••BBBB");
  });

  it("without PUBLIC_URL: the reason instead of commands", async () => {
    const fake = new FakeApi().on(LaunchApi.getUserLaunchCommands, {
      node_id: 4,
      node_name: "上海一号",
      missing: "请先由运营方设置 PUBLIC_URL",
      commands: null,
      token_created_at: null,
    });
    renderPage(<LaunchCard nodeId={4} />, fake);
    expect(await screen.findByText("请先由运营方设置 PUBLIC_URL")).toBeTruthy();
    expect(screen.queryByRole("tab")).toBeNull();
  });
});
