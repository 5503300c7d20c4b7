import type { DownloadRow } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { groupByOs } from "./download-groups";

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
});
