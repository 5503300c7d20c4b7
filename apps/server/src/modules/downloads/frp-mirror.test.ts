import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { DownloadRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";
import { mirroredFrpc } from "./downloads.service";
import { MirrorError } from "./frp-build";
import { mirrorFrp } from "./frp-mirror";

// A real `go build` of one native platform from the pinned module (tools/frp/versions/v0.70.1):
// the Go build cache (warm after tools/frp/build.sh) makes it a link step of some seconds.
const PUBLIC_URL = "https://console.example.com/burrow/";
const V = "0.70.1";
const FRPC = `frpc_${V}_linux_amd64`;
const FRPS = `frps_${V}_linux_amd64`;

let t: TestApp;
let admin: string;
adminSuite((s) => ({ t, admin } = s), { PUBLIC_URL });

const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");
const dir = () => path.resolve(t.ctx.config.DATA_DIR, "mirror", "frp", V);
const rowsOf = (osName: string, arch: string) =>
  t.db.selectFrom("client_downloads").selectAll().where("os", "=", osName).where("arch", "=", arch).execute();
const mirrorAudits = () => t.db.selectFrom("audit_logs").selectAll().where("action", "=", "download.mirror").execute();
const get = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
  t.app.inject({ method, url, headers });

describe("frp mirror", () => {
  it("builds frpc and frps, takes over the hand-typed row, serves the bytes and skips a second run", async () => {
    const typed = await t.api<DownloadRow>("POST", "/super/download", {
      token: admin,
      body: {
        os: "linux",
        arch: "amd64",
        version: V,
        url: "https://github.com/x/frp.tar.gz",
        checksum: "a".repeat(64),
      },
    });
    expect(typed.body.code).toBe("SUCCESS");

    const done = await mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] });
    expect(done.map((d) => [d.program, d.file, d.status])).toEqual([
      ["frpc", FRPC, "built"],
      ["frps", FRPS, "built"],
    ]);
    const frpcSum = await sha256(path.join(dir(), FRPC));
    expect(done[0]?.sha256).toBe(frpcSum);
    expect(done[1]?.sha256).toBe(await sha256(path.join(dir(), FRPS)));
    const { size } = await fs.stat(path.join(dir(), FRPC));

    // One row for linux/amd64/0.70.1: the hand-typed one, now the console's own build.
    const rows = await rowsOf("linux", "amd64");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: typed.body.data.id, checksum: frpcSum, mirror_file: FRPC, note: "控制台镜像" });
    expect(Number(rows[0]?.size)).toBe(size);
    const link = `https://console.example.com/burrow/download/frp/${V}/${FRPC}`;
    const u = await t.register();
    const listed = (await t.api<DownloadRow[]>("GET", "/user/download", { token: u.token })).body.data;
    expect(listed.find((d) => d.os === "linux" && d.arch === "amd64")).toMatchObject({
      url: link,
      checksum: frpcSum,
      mirrored: true,
      size,
    });
    expect(await mirroredFrpc(t.ctx, "linux", "amd64")).toMatchObject({ url: link, version: V });
    expect(await mirroredFrpc(t.ctx, "linux", "arm64")).toBeNull();
    const audits = await mirrorAudits();
    expect(audits.map((a) => [a.target, a.operator_uid, a.ip])).toEqual([[`download:${typed.body.data.id}`, 0, "cli"]]);

    // The link serves the same bytes, as an attachment, with a validator.
    const res = await get(`/download/frp/${V}/${FRPC}`);
    expect(res.statusCode).toBe(200);
    expect(createHash("sha256").update(res.rawPayload).digest("hex")).toBe(frpcSum);
    expect(res.headers).toMatchObject({
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${FRPC}"`,
      "content-length": String(size),
      "cache-control": "public, max-age=3600",
    });
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const head = await get(`/download/frp/${V}/${FRPC}`, {}, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe(String(size));
    expect(head.rawPayload.length).toBe(0);
    expect((await get(`/download/frp/${V}/${FRPC}`, { "if-none-match": etag })).statusCode).toBe(304);
    const frps = await get(`/download/frp/${V}/${FRPS}`);
    expect(createHash("sha256").update(frps.rawPayload).digest("hex")).toBe(done[1]?.sha256);

    // The downloaded frpc runs.
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "burrow-mirror-"));
    const exe = path.join(tmp, "frpc");
    await fs.writeFile(exe, res.rawPayload, { mode: 0o755 });
    expect((await promisify(execFile)(exe, ["-v"])).stdout.trim()).toBe(V);
    await fs.rm(tmp, { recursive: true });

    // A second run builds nothing and changes nothing.
    const again = await mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] });
    expect(again.map((d) => d.status)).toEqual(["skipped", "skipped"]);
    expect(again.map((d) => d.sha256)).toEqual(done.map((d) => d.sha256));
    expect(await rowsOf("linux", "amd64")).toHaveLength(1);
    expect(await mirrorAudits()).toHaveLength(1);
  }, 600_000);

  it("404s every name that is not a mirrored file: traversal, encoded slashes, other versions, sidecars, symlinks", async () => {
    await fs.mkdir(dir(), { recursive: true });
    await fs.writeFile(path.join(t.ctx.config.DATA_DIR, "secret.txt"), "secret");
    await fs.symlink("/etc/passwd", path.join(dir(), `frpc_${V}_linux_arm64`)).catch(() => undefined);
    for (const url of [
      `/download/frp/${V}/..%2f..%2f..%2fsecret.txt`,
      `/download/frp/${V}/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt`,
      `/download/frp/${V}/..%5c..%5csecret.txt`,
      `/download/frp/..%2f${V}/${FRPC}`,
      `/download/frp/${V}%2f..%2f..%2f..%2f/secret.txt`,
      `/download/frp/0.61.2/${FRPC}`,
      `/download/frp/9.9.9/frpc_9.9.9_linux_amd64`,
      `/download/frp/${V}/${FRPC}.sha256`,
      `/download/frp/${V}/${FRPC}%00`,
      `/download/frp/${V}/frpc_${V}_windows_amd64`,
      `/download/frp/${V}/frpc_${V}_linux_arm64`,
      `/download/frp/${V}/frpc_${V}_linux_mips64`,
      `/download/frp/${V}/.build-abc`,
      `/download/frp/${V}/`,
      `/download/frp/v${V}/${FRPC}`,
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).not.toContain("secret");
      expect(r.body, url).not.toContain("root:");
    }
  });

  it("keeps one row when two runs upsert at once, and refuses edits of a mirrored row's link or hash", async () => {
    const before = (await rowsOf("linux", "amd64"))[0];
    await t.db.deleteFrom("client_downloads").where("id", "=", Number(before?.id)).execute();
    const both = await Promise.all([
      mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] }),
      mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] }),
    ]);
    expect(both.flat().map((d) => d.status)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    const rows = await rowsOf("linux", "amd64");
    expect(rows).toHaveLength(1);
    const id = Number(rows[0]?.id);
    for (const [field, value] of [
      ["url", "https://evil.example.com/frpc"],
      ["checksum", "b".repeat(64)],
      ["version", "0.61.2"],
    ] as const) {
      const r = await t.api("PATCH", "/super/download", { token: admin, body: { id, [field]: value } });
      expect(r.status, field).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    expect((await rowsOf("linux", "amd64"))[0]).toEqual(rows[0]);
    const ok = await t.api<DownloadRow>("PATCH", "/super/download", {
      token: admin,
      body: { id, note: "推荐", sort: 1 },
    });
    expect(ok.body.data).toMatchObject({ note: "推荐", sort: 1, mirrored: true });
    // A rerun keeps the operator's note on a mirrored row.
    await mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] });
    expect((await rowsOf("linux", "amd64"))[0]?.note).toBe("推荐");
  }, 120_000);

  it("rebuilds a file whose bytes no longer match its recorded hash", async () => {
    const file = path.join(dir(), FRPC);
    const good = await sha256(file);
    await fs.appendFile(file, "tampered");
    const done = await mirrorFrp(t.ctx, { version: V, platforms: ["linux/amd64"] });
    expect(done.map((d) => d.status)).toEqual(["built", "built"]);
    expect(await sha256(file)).toBe(good);
    expect((await rowsOf("linux", "amd64"))[0]?.checksum).toBe(good);
  }, 600_000);

  it("mirrors each pinned version (v0.52.3, v0.61.2: no noweb tag) into a frpc that says its version, listed newest first", async () => {
    for (const v of ["0.52.3", "0.61.2"]) {
      const done = await mirrorFrp(t.ctx, { version: v, platforms: ["linux/amd64"] });
      const file = path.resolve(t.ctx.config.DATA_DIR, "mirror", "frp", v, `frpc_${v}_linux_amd64`);
      expect(done[0]?.sha256).toBe(await sha256(file));
      expect((await promisify(execFile)(file, ["-v"])).stdout.trim()).toBe(v);
    }
    const u = await t.register();
    const listed = (await t.api<DownloadRow[]>("GET", "/user/download", { token: u.token })).body.data;
    expect(listed.filter((d) => d.os === "linux" && d.arch === "amd64" && d.mirrored).map((d) => d.version)).toEqual([
      V,
      "0.61.2",
      "0.52.3",
    ]);
    expect((await mirroredFrpc(t.ctx, "linux", "amd64"))?.version).toBe(V);
  }, 600_000);

  it("names what it knows when asked for an unknown version or platform, and says when go is missing", async () => {
    const err = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: Error) => e,
      );
    const v = await err(mirrorFrp(t.ctx, { version: "0.99.0" }));
    expect(v).toBeInstanceOf(MirrorError);
    expect(v?.message).toMatch(/0\.99\.0[\s\S]*0\.70\.1, 0\.61\.2, 0\.52\.3/);
    const p = await err(mirrorFrp(t.ctx, { version: V, platforms: ["linux/sparc"] }));
    expect(p?.message).toMatch(/linux\/sparc[\s\S]*linux\/armv7/);
    const g = await err(mirrorFrp(t.ctx, { version: V, platforms: ["linux/arm64"], goBin: "/nonexistent/go" }));
    expect(g?.message).toContain("Go is not installed");
    const noUrl = { ...t.ctx, config: { ...t.ctx.config, PUBLIC_URL: undefined } };
    expect((await err(mirrorFrp(noUrl, { version: V })))?.message).toContain("PUBLIC_URL");
    expect(await rowsOf("linux", "arm64")).toHaveLength(0);
  });
});
