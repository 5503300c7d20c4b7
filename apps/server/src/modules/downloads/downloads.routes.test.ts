import type { DownloadRow, Paged } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const sum = (c: string) => c.repeat(64);
const build = (o: Partial<DownloadRow> = {}) => ({
  os: "linux",
  arch: "amd64",
  version: "0.70.1",
  url: "https://dl.example.com/frp_0.70.1_linux_amd64.tar.gz",
  checksum: sum("a"),
  ...o,
});

describe("client downloads", () => {
  it("lets operators publish, edit and remove frpc builds and customers list them newest first", async () => {
    const a = await t.api<DownloadRow>("POST", "/super/download", { token: admin, body: build() });
    expect(a.body.data).toMatchObject({ os: "linux", arch: "amd64", version: "0.70.1", note: "", sort: 0 });
    await t.api("POST", "/super/download", { token: admin, body: build({ version: "0.9.0", checksum: sum("B") }) });
    await t.api("POST", "/super/download", {
      token: admin,
      body: build({ os: "windows", url: "https://dl.example.com/frpc.zip" }),
    });
    const list = await t.api<Paged<DownloadRow>>("GET", "/super/download", { token: admin, query: { os: "linux" } });
    expect(list.body.data.total).toBe(2);
    const e = await t.api<DownloadRow>("PATCH", "/super/download", {
      token: admin,
      body: { id: a.body.data.id, note: "推荐" },
    });
    expect(e.body.data.note).toBe("推荐");
    const u = await t.register();
    const mine = await t.api<DownloadRow[]>("GET", "/user/download", { token: u.token });
    expect(mine.body.data.map((d) => `${d.os}-${d.version}`)).toEqual([
      "linux-0.70.1",
      "windows-0.70.1",
      "linux-0.9.0",
    ]);
    expect(mine.body.data.find((d) => d.version === "0.9.0")?.checksum).toBe(sum("b"));
    expect((await t.api("DELETE", "/super/download", { token: admin, body: { id: a.body.data.id } })).body.code).toBe(
      "SUCCESS",
    );
    expect((await t.api("DELETE", "/super/download", { token: admin, body: { id: a.body.data.id } })).status).toBe(404);
    const audit = await t.db
      .selectFrom("audit_logs")
      .select("action")
      .where("target", "=", `download:${a.body.data.id}`)
      .execute();
    expect(audit.map((r) => r.action)).toEqual(["download.create", "download.update", "download.delete"]);
  });

  it("refuses a duplicate build (40008) and names bad fields", async () => {
    await t.api("POST", "/super/download", { token: admin, body: build({ arch: "arm64" }) });
    expect((await t.api("POST", "/super/download", { token: admin, body: build({ arch: "arm64" }) })).body.code).toBe(
      40008,
    );
    for (const [o, field] of [
      [{ os: "plan9" }, "os"],
      [{ arch: "sparc" }, "arch"],
      [{ version: "latest" }, "version"],
      [{ url: "ftp://x/y" }, "url"],
      [{ checksum: "abc" }, "checksum"],
    ] as const) {
      const r = await t.api("POST", "/super/download", { token: admin, body: build(o as Partial<DownloadRow>) });
      expect(r.body.code, field).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    const u = await t.register();
    expect((await t.api("POST", "/super/download", { token: u.token, body: build() })).body.code).toBe(30004);
  });
});
