import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { DownloadRow } from "@burrow/contract";
import { mirrorDir, mirrorFileName } from "./mirror-paths";

/**
 * Cross-compiling frpc and frps from the Go module proxy (docs/downloads.md), as tools/frp/build.sh
 * does for the tests: from the pinned module in tools/frp/versions/v<version> (checked against its
 * go.sum with -mod=readonly; GOTOOLCHAIN=local so Go never fetches another toolchain). frp's code
 * is never in the repository, only its module hashes.
 */

/** What `--platforms` accepts: the common platforms of issue 33 §1 (armv7 is the contract's "arm"). */
export const MIRROR_PLATFORMS = {
  "linux/amd64": { os: "linux", arch: "amd64", env: { GOOS: "linux", GOARCH: "amd64" } },
  "linux/arm64": { os: "linux", arch: "arm64", env: { GOOS: "linux", GOARCH: "arm64" } },
  "linux/armv7": { os: "linux", arch: "arm", env: { GOOS: "linux", GOARCH: "arm", GOARM: "7" } },
  "linux/mipsle": { os: "linux", arch: "mipsle", env: { GOOS: "linux", GOARCH: "mipsle", GOMIPS: "softfloat" } },
  "windows/amd64": { os: "windows", arch: "amd64", env: { GOOS: "windows", GOARCH: "amd64" } },
  "darwin/arm64": { os: "darwin", arch: "arm64", env: { GOOS: "darwin", GOARCH: "arm64" } },
  "darwin/amd64": { os: "darwin", arch: "amd64", env: { GOOS: "darwin", GOARCH: "amd64" } },
} as const satisfies Record<string, { os: DownloadRow["os"]; arch: DownloadRow["arch"]; env: Record<string, string> }>;
export type MirrorPlatform = keyof typeof MIRROR_PLATFORMS;
export const DEFAULT_PLATFORMS = Object.keys(MIRROR_PLATFORMS) as MirrorPlatform[];

/** The pinned frp modules, next to tools/frp/build.sh. */
export const DEFAULT_VERSIONS_DIR = path.resolve(import.meta.dirname, "../../../../../tools/frp/versions");

/** A mirror the operator asked for cannot be made (unknown version or platform, no `go`, a failed build). */
export class MirrorError extends Error {}

/** The versions with a pinned module (tools/frp/versions/v<version>/go.mod), newest first. */
export async function knownVersions(versionsDir: string): Promise<string[]> {
  const names = await fs.readdir(versionsDir).catch(() => [] as string[]);
  const found: string[] = [];
  for (const n of names) {
    const m = /^v(\d+\.\d+\.\d+)$/.exec(n);
    if (m?.[1] && (await fs.stat(path.join(versionsDir, n, "go.mod")).catch(() => null))) found.push(m[1]);
  }
  return found.sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    // Go's errors are short; a runaway output is cut rather than held whole.
    const keep = (b: Buffer) => {
      if (out.length < 20_000) out += b.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new MirrorError(`${cmd} ${args[0]}: ${out}`))));
  });
}

/** `go version`, or a MirrorError saying how to get Go when it is missing. */
export async function goVersion(goBin = "go"): Promise<string> {
  try {
    return (await run(goBin, ["version"], {})).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      throw new MirrorError(
        `Go is not installed (no "${goBin}" on PATH). frp-mirror builds frpc and frps with the Go toolchain: ` +
          "install Go (https://go.dev/dl/, the version in tools/frp/versions/*/go.mod or newer) and run it again.",
      );
    throw err;
  }
}

/** SHA-256 of a file, streamed (frpc is ~15 MB). */
export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash("sha256");
    createReadStream(file)
      .on("error", reject)
      .on("data", (b) => h.update(b))
      .on("end", () => resolve(h.digest("hex")));
  });
}

/**
 * Builds frpc and frps of `version` for one platform into `dataDir`'s mirror: into a fresh temporary
 * directory beside the final files, then renamed into place (a download never sees a half-written
 * file, and two runs at once never write the same temporary file). Returns the final paths.
 */
export async function buildPlatform(o: {
  dataDir: string;
  versionsDir: string;
  version: string;
  platform: MirrorPlatform;
  goBin?: string;
}): Promise<{ frpc: string; frps: string }> {
  const p = MIRROR_PLATFORMS[o.platform];
  const dir = mirrorDir(o.dataDir, o.version);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.build-${randomBytes(6).toString("hex")}`);
  await fs.mkdir(tmp);
  try {
    // From v0.68 on frp embeds its dashboards' built assets, which the module does not carry.
    const minor = Number(o.version.split(".")[1]);
    const tags = minor >= 68 ? ["-tags", "noweb"] : [];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...p.env,
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local",
      GOFLAGS: "-mod=readonly",
    };
    await run(
      o.goBin ?? "go",
      [
        "build",
        "-trimpath",
        "-ldflags",
        "-s -w",
        ...tags,
        "-o",
        `${tmp}/`,
        "github.com/fatedier/frp/cmd/frpc",
        "github.com/fatedier/frp/cmd/frps",
      ],
      { cwd: path.join(o.versionsDir, `v${o.version}`), env },
    );
    const exe = p.os === "windows" ? ".exe" : "";
    const out = { frpc: "", frps: "" };
    for (const prog of ["frpc", "frps"] as const) {
      const final = path.join(dir, mirrorFileName(prog, o.version, p.os, p.arch));
      await fs.chmod(path.join(tmp, prog + exe), 0o755);
      await fs.rename(path.join(tmp, prog + exe), final);
      out[prog] = final;
    }
    return out;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
