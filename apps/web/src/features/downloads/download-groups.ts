import { DownloadArches, DownloadOses, type DownloadRow } from "@burrow/contract";
import { valueOptions } from "@/lib/options";

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
  arm: "ARMv7 (arm)",
  mips: "MIPS",
  mipsle: "MIPS LE",
  mips64: "MIPS64",
  mips64le: "MIPS64 LE",
  riscv64: "RISC-V 64",
  loong64: "LoongArch64",
};

/** The systems and architectures as Select options, in the contract's order. */
export const osOptions = valueOptions(DownloadOses, OS_LABEL);
export const archOptions = valueOptions(DownloadArches, ARCH_LABEL);

const OS_ORDER: DownloadRow["os"][] = ["windows", "darwin", "linux", "freebsd", "android"];

export interface OsGroup {
  os: DownloadRow["os"];
  /** the newest version among the group's builds */
  latest: string;
  /** builds, newest version first (the server's order kept) */
  builds: DownloadRow[];
}

/** The visitor's platform as far as the browser tells it; arch null when it does not (a Mac's chip). */
export interface GuessedPlatform {
  os: DownloadRow["os"];
  arch: DownloadRow["arch"] | null;
}

/**
 * A guess from navigator.userAgent: it only orders the list and marks 适合本机, so a wrong guess
 * costs a scroll. Safari on Apple silicon still says "Intel Mac OS X": a Mac's arch is unknown.
 */
export function guessPlatform(userAgent: string): GuessedPlatform | null {
  const ua = userAgent;
  if (/Windows/.test(ua)) return { os: "windows", arch: /ARM64|aarch64/i.test(ua) ? "arm64" : "amd64" };
  if (/iPhone|iPad|iPod/.test(ua)) return null;
  if (/Macintosh|Mac OS X/.test(ua)) return { os: "darwin", arch: null };
  if (/Android/.test(ua)) return { os: "android", arch: "arm64" };
  if (/Linux|X11|CrOS/.test(ua)) {
    if (/x86_64|amd64|x64/i.test(ua)) return { os: "linux", arch: "amd64" };
    if (/aarch64|arm64/i.test(ua)) return { os: "linux", arch: "arm64" };
    if (/armv7/i.test(ua)) return { os: "linux", arch: "arm" };
    return { os: "linux", arch: null };
  }
  return null;
}

/** The newest builds that fit the guessed platform (both Mac chips when the arch is unknown). */
export function suggestedBuilds(rows: DownloadRow[], guess: GuessedPlatform | null): DownloadRow[] {
  if (!guess) return [];
  const fit = rows.filter((r) => r.os === guess.os && (guess.arch === null || r.arch === guess.arch));
  return fit.filter((r) => r.version === fit[0]?.version);
}

/**
 * Groups builds by system in a fixed order (Windows, macOS, Linux, …) with the visitor's system
 * first, keeping the server's newest-first order inside each group.
 * @param rows GET /user/download, newest version first
 */
export function groupByOs(rows: DownloadRow[], first?: DownloadRow["os"]): OsGroup[] {
  const groups = new Map<DownloadRow["os"], DownloadRow[]>();
  for (const r of rows) groups.set(r.os, [...(groups.get(r.os) ?? []), r]);
  const order = first ? [first, ...OS_ORDER.filter((os) => os !== first)] : OS_ORDER;
  return order
    .filter((os) => groups.has(os))
    .map((os) => {
      const builds = groups.get(os) ?? [];
      return { os, latest: builds[0]?.version ?? "", builds };
    });
}
