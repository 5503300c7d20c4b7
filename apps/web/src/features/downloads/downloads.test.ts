import type { DownloadRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { groupByOs, guessPlatform, suggestedBuilds } from "./download-groups";

const row = (id: number, os: DownloadRow["os"], arch: DownloadRow["arch"], version: string): DownloadRow => ({
  id,
  os,
  arch,
  version,
  url: `https://example.com/${id}`,
  checksum: "0".repeat(64),
  note: "",
  sort: 0,
  mirrored: false,
  size: null,
  created_at: "2026-01-01T00:00:00.000Z",
});

describe("groupByOs", () => {
  it("orders systems Windows, macOS, Linux and keeps newest first inside", () => {
    const groups = groupByOs([
      row(1, "linux", "amd64", "0.70.1"),
      row(2, "windows", "amd64", "0.70.1"),
      row(3, "linux", "arm64", "0.70.1"),
      row(4, "darwin", "arm64", "0.70.1"),
      row(5, "linux", "amd64", "0.69.0"),
    ]);
    expect(groups.map((g) => g.os)).toEqual(["windows", "darwin", "linux"]);
    const linux = groups[2];
    expect(linux.latest).toBe("0.70.1");
    expect(linux.builds.map((b) => b.id)).toEqual([1, 3, 5]);
  });

  it("is empty without builds", () => {
    expect(groupByOs([])).toEqual([]);
  });

  it("puts the visitor's system first", () => {
    const groups = groupByOs([row(1, "windows", "amd64", "0.70.1"), row(2, "linux", "arm", "0.70.1")], "linux");
    expect(groups.map((g) => g.os)).toEqual(["linux", "windows"]);
  });
});

describe("guessPlatform and suggestedBuilds", () => {
  it("reads the system and, where the browser tells it, the architecture", () => {
    expect(guessPlatform("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131")).toEqual({
      os: "windows",
      arch: "amd64",
    });
    expect(guessPlatform("Mozilla/5.0 (X11; Linux aarch64) Firefox/133")).toEqual({ os: "linux", arch: "arm64" });
    expect(guessPlatform("Mozilla/5.0 (X11; Linux armv7l) Chrome/120")).toEqual({ os: "linux", arch: "arm" });
    expect(guessPlatform("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605")).toEqual({
      os: "darwin",
      arch: null,
    });
    expect(guessPlatform("Mozilla/5.0 (iPad; CPU OS 18_0 like Mac OS X)")).toBeNull();
    expect(guessPlatform("curl/8.5.0")).toBeNull();
  });

  it("suggests the newest builds that fit", () => {
    const rows = [
      row(1, "linux", "amd64", "0.70.1"),
      row(2, "linux", "arm64", "0.70.1"),
      row(3, "linux", "amd64", "0.61.2"),
      row(4, "darwin", "arm64", "0.70.1"),
      row(5, "darwin", "amd64", "0.70.1"),
    ];
    expect(suggestedBuilds(rows, { os: "linux", arch: "amd64" }).map((r) => r.id)).toEqual([1]);
    expect(suggestedBuilds(rows, { os: "darwin", arch: null }).map((r) => r.id)).toEqual([4, 5]);
    expect(suggestedBuilds(rows, { os: "windows", arch: "amd64" })).toEqual([]);
    expect(suggestedBuilds(rows, null)).toEqual([]);
  });
});
