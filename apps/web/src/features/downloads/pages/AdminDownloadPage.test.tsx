// @vitest-environment jsdom
import { type DownloadRow, DownloadsApi, Role, type UserInfo, UsersApi } from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { AdminDownloadPage } from "./AdminDownloadPage";

const manager = { uid: 1, role: Role.Manager, personal_info: { avatar: "", phone_number: "" } } as unknown as UserInfo;
const row = (o: Partial<DownloadRow>): DownloadRow => ({
  id: 7,
  os: "linux",
  arch: "arm",
  version: "0.70.1",
  url: "https://console.example.com/download/frp/0.70.1/frpc_0.70.1_linux_arm",
  checksum: "c".repeat(64),
  note: "控制台镜像 · ARMv7",
  sort: 0,
  mirrored: true,
  size: 14 * 1024 * 1024,
  created_at: "2026-11-28T10:00:00.000Z",
  ...o,
});

function show(rows: DownloadRow[]) {
  const fake = new FakeApi()
    .on(UsersApi.getUserUserInfo, manager)
    .on(DownloadsApi.getSuperDownload, { list: rows, total: rows.length })
    .on(DownloadsApi.getUserDownload, rows)
    .on(DownloadsApi.patchSuperDownload, (c) => ({ ...rows[0], ...(c.body as object) }));
  renderPage(<AdminDownloadPage />, fake, { path: "/admin/download" });
  return fake;
}

/**
 * The button around a text: found by its text rather than by role, since jsdom computes every
 * element's role and accessible name for a role query (seconds per query on a loaded machine).
 */
const button = (text: HTMLElement) => text.closest("button") as HTMLElement;

describe("/admin/download", () => {
  it("marks a mirrored row, locks its platform, link and hash, and saves only note and sort", async () => {
    const fake = show([row({})]);
    expect(await screen.findByText("控制台镜像")).toBeTruthy();
    expect(screen.queryByText("由控制台自行构建并托管客户端")).toBeNull();
    fireEvent.click(button(await screen.findByText("编辑")));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(/由 frp-mirror 命令维护/)).toBeTruthy();
    expect((within(dialog).getByLabelText("下载地址") as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByLabelText("SHA-256 校验和") as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("说明"), { target: { value: "推荐" } });
    fireEvent.click(button(within(dialog).getByText(/保\s*存/)));
    await waitFor(() => expect(fake.callsTo(DownloadsApi.patchSuperDownload)).toHaveLength(1));
    expect(fake.callsTo(DownloadsApi.patchSuperDownload)[0]?.body).toEqual({ id: 7, note: "推荐", sort: 0 });
  });

  it("explains the command while nothing is mirrored, and a hand-typed row stays editable", async () => {
    show([row({ mirrored: false, size: null, note: "", url: "https://github.com/x.tar.gz" })]);
    expect(await screen.findByText("由控制台自行构建并托管客户端")).toBeTruthy();
    expect(screen.getByText("npm run admin -- frp-mirror")).toBeTruthy();
    expect(await screen.findByText("手动填写")).toBeTruthy();
    fireEvent.click(button(await screen.findByText("编辑")));
    const dialog = await screen.findByRole("dialog");
    expect((within(dialog).getByLabelText("下载地址") as HTMLInputElement).disabled).toBe(false);
    expect(within(dialog).queryByText(/由 frp-mirror 命令维护/)).toBeNull();
  });
});
