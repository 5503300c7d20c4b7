import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../db/database";
import { parseMirrorArgs } from "./frp-mirror";

// `npm run admin -- frp-mirror` as the operator runs it, against a SQLite data directory of its own
// (one native platform; the Go build cache makes the build a link step).
const serverDir = fileURLToPath(new URL("../..", import.meta.url));
let dataDir: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "burrow-frp-mirror-cli-"));
  await fs.writeFile(path.join(dataDir, "burrow.sqlite"), "");
});
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

function admin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(serverDir, "../../node_modules/tsx/dist/cli.mjs"), "src/cli/admin.ts", ...args],
      {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", PUBLIC_URL: "https://console.example.com", ...env },
      },
      (e, out, err) => resolve({ code: e ? Number(e.code) : 0, out, err }),
    );
  });
}

describe("npm run admin -- frp-mirror", () => {
  it("builds, prints a table of sizes and hashes, lists the frpc row; a rerun builds nothing", async () => {
    const r = await admin(["frp-mirror", "--platforms", "linux/amd64"]);
    expect(r.code, r.err).toBe(0);
    const file = path.join(dataDir, "mirror", "frp", "0.70.1", "frpc_0.70.1_linux_amd64");
    const sum = createHash("sha256")
      .update(await fs.readFile(file))
      .digest("hex");
    expect(r.out).toMatch(new RegExp(`linux/amd64\\s+frpc_0\\.70\\.1_linux_amd64\\s+[\\d.]+ MB\\s+${sum}\\s+built`));
    expect(r.out).toMatch(/frps_0\.70\.1_linux_amd64 .* built/);
    const db = createDb({ sqliteFile: path.join(dataDir, "burrow.sqlite") });
    try {
      const rows = await db.selectFrom("client_downloads").selectAll().execute();
      expect(rows.map((x) => [x.os, x.arch, x.version, x.checksum, x.url])).toEqual([
        ["linux", "amd64", "0.70.1", sum, "https://console.example.com/download/frp/0.70.1/frpc_0.70.1_linux_amd64"],
      ]);
    } finally {
      await db.destroy();
    }
    const again = await admin(["frp-mirror", "--platforms=linux/amd64"]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("0 file(s) built, 2 already mirrored");
  }, 300_000);

  it("says when go is missing, and refuses unknown options and versions", async () => {
    const noGo = await admin(["frp-mirror", "--platforms", "linux/arm64"], { PATH: "/usr/bin:/bin" });
    expect(noGo.code).toBe(1);
    expect(noGo.err).toContain("Go is not installed");
    const bad = await admin(["frp-mirror", "--fast"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("unknown option --fast");
    const old = await admin(["frp-mirror", "--version", "0.1.0"]);
    expect(old.code).toBe(1);
    expect(old.err).toContain("the pinned versions are 0.70.1, 0.61.2, 0.52.3");
  }, 120_000);

  it("parses its options", () => {
    expect(parseMirrorArgs([])).toMatchObject({ version: "0.70.1", force: false });
    expect(parseMirrorArgs(["--version", "0.61.2", "--platforms", "linux/amd64, windows/amd64", "--force"])).toEqual({
      version: "0.61.2",
      platforms: ["linux/amd64", "windows/amd64"],
      force: true,
    });
    expect(parseMirrorArgs(["--version"])).toBe("--version needs a value");
  });
});
