// @vitest-environment jsdom
import { type DownloadRow, DownloadsApi, NodesApi } from "@burrow/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { DownloadPage } from "./DownloadPage";

const sum = (c: string) => c.repeat(64);
const row = (id: number, o: Partial<DownloadRow>): DownloadRow => ({
  id,
  os: "linux",
  arch: "amd64",
  version: "0.70.1",
  url: `https://console.example.com/download/frp/0.70.1/frpc_${id}`,
  checksum: sum("a"),
  note: "控制台镜像",
  sort: 0,
  mirrored: true,
  size: 15 * 1024 * 1024,
  created_at: "2026-11-28T10:00:00.000Z",
  ...o,
});
// The server's order: newest version first.
const ROWS = [
  row(1, { os: "windows", checksum: sum("1") }),
  row(2, { os: "darwin", arch: "arm64", checksum: sum("2") }),
  row(3, { os: "darwin", arch: "amd64", checksum: sum("3") }),
  row(4, { arch: "amd64", checksum: sum("4") }),
  row(5, { arch: "arm", checksum: sum("5"), note: "控制台镜像 · ARMv7" }),
  row(6, {
    version: "0.61.2",
    url: "https://github.com/fatedier/frp/releases/x.tar.gz",
    mirrored: false,
    size: null,
    note: "",
    checksum: sum("6"),
  }),
];

function show(userAgent: string) {
  vi.spyOn(navigator, "userAgent", "get").mockReturnValue(userAgent);
  const fake = new FakeApi().on(DownloadsApi.getUserDownload, ROWS).on(NodesApi.getUserNode, { list: [], total: 0 });
  renderPage(<DownloadPage />, fake);
  return fake;
}

afterEach(() => vi.restoreAllMocks());

describe("/download", () => {
  it("puts the visitor's platform first with its own card, and shows label, size, full hash and the console's link", async () => {
    const fake = show(
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    );
    const suggested = (await screen.findByText("适合本机", { selector: ".ant-card-head-title" })).closest(".ant-card");
    expect(suggested).toBeTruthy();
    const card = within(suggested as HTMLElement);
    expect(card.getByText("Linux x86-64")).toBeTruthy();
    expect(card.getByText("frpc 0.70.1 · 15.00 MB")).toBeTruthy();
    expect(card.getByText(sum("4"))).toBeTruthy();
    const link = card.getByRole("link", { name: "下载 Linux x86-64 0.70.1" });
    expect(link.getAttribute("href")).toBe(ROWS[3]?.url);
    // The console's own file downloads in place; a foreign link opens a new tab.
    expect(link.getAttribute("target")).toBeNull();

    // Systems: the visitor's (Linux) first, then Windows, macOS.
    const titles = [...document.querySelectorAll(".ant-card-head-title")].map((e) => e.textContent);
    expect(titles.filter((t) => /最新版本/.test(t ?? ""))).toEqual([
      "Linux最新版本 0.70.1",
      "Windows最新版本 0.70.1",
      "macOS最新版本 0.70.1",
    ]);
    expect(screen.getAllByText("Linux ARMv7").length).toBeGreaterThan(0);
    expect(screen.getAllByText("macOS Apple 芯片").length).toBeGreaterThan(0);
    expect(screen.getByText(sum("5"))).toBeTruthy();
    const foreign = screen.getByRole("link", { name: "下载 Linux x86-64 0.61.2" });
    expect(foreign.getAttribute("target")).toBe("_blank");
    expect(screen.getAllByText("本站提供").length).toBe(5);
    expect(fake.unanswered).toEqual([]);
  });

  it("suggests both Mac chips (Safari does not tell them apart)", async () => {
    show(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15",
    );
    const suggested = (await screen.findByText("适合本机", { selector: ".ant-card-head-title" })).closest(".ant-card");
    const card = within(suggested as HTMLElement);
    expect(card.getByText("macOS Apple 芯片")).toBeTruthy();
    expect(card.getByText("macOS Intel 芯片")).toBeTruthy();
  });

  it("shows no suggestion on an iPhone", async () => {
    show("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148");
    await screen.findAllByText("Linux ARMv7");
    expect(screen.queryByText("适合本机", { selector: ".ant-card-head-title" })).toBeNull();
  });
});
