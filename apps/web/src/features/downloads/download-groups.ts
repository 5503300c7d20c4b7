import type { DownloadRow } from "@burrow/contract";

/** Names of the systems frpc is built for. */
export const OS_LABEL: Record<DownloadRow["os"], string> = {
  windows: "Windows",
  darwin: "macOS",
  linux: "Linux",
  freebsd: "FreeBSD",
  android: "Android",
};

/** Plain-language names of the architectures. */
export const ARCH_LABEL: Record<DownloadRow["arch"], string> = {
  amd64: "x86_64 (amd64)",
  "386": "x86 32 位 (386)",
  arm64: "ARM64 (aarch64)",
  arm: "ARM 32 位",
  mips: "MIPS",
  mipsle: "MIPS LE",
  mips64: "MIPS64",
  mips64le: "MIPS64 LE",
  riscv64: "RISC-V 64",
  loong64: "LoongArch64",
};

const OS_ORDER: DownloadRow["os"][] = ["windows", "darwin", "linux", "freebsd", "android"];

export interface OsGroup {
  os: DownloadRow["os"];
  /** the newest version among the group's builds */
  latest: string;
  /** builds, newest version first (the server's order kept) */
  builds: DownloadRow[];
}

/**
 * Groups builds by system in a fixed order (Windows, macOS, Linux, …), keeping the server's
 * newest-first order inside each group.
 * @param rows GET /user/download, newest version first
 */
export function groupByOs(rows: DownloadRow[]): OsGroup[] {
  const groups = new Map<DownloadRow["os"], DownloadRow[]>();
  for (const r of rows) groups.set(r.os, [...(groups.get(r.os) ?? []), r]);
  return OS_ORDER.filter((os) => groups.has(os)).map((os) => {
    const builds = groups.get(os) ?? [];
    return { os, latest: builds[0]?.version ?? "", builds };
  });
}
