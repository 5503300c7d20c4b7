import { z } from "zod";
import { optionalText, PageQuery } from "./common";
import { Id } from "./nodes";

export const DownloadOses = ["windows", "darwin", "linux", "freebsd", "android"] as const;
export const DownloadArches = [
  "amd64",
  "386",
  "arm64",
  "arm",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "riscv64",
  "loong64",
] as const;

const fields = {
  os: z.enum(DownloadOses),
  arch: z.enum(DownloadArches),
  /** frpc version, e.g. 0.70.1 */
  version: z
    .string()
    .trim()
    .regex(/^v?\d+\.\d+\.\d+([-.+][0-9A-Za-z.-]+)?$/, "版本号格式应为 0.70.1"),
  url: z.url({ protocol: /^https?$/, error: "请输入 http(s) 下载地址" }).max(500),
  /** SHA-256 of the file, hex */
  checksum: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[0-9a-f]{64}$/, "校验和应为 64 位十六进制 SHA-256"),
  note: z.string().trim().max(200),
  sort: z.number().int().min(0).max(1_000_000),
};

/** GET /super/download */
export const DownloadListQuery = PageQuery.extend({
  os: z.preprocess((v) => (v === "" ? undefined : v), fields.os.optional()),
  version: optionalText(40),
});
export type DownloadListQuery = z.infer<typeof DownloadListQuery>;

/** POST /super/download */
export const CreateDownloadBody = z.object({
  ...fields,
  note: fields.note.default(""),
  sort: fields.sort.default(0),
});
export type CreateDownloadBody = z.infer<typeof CreateDownloadBody>;

/** PATCH /super/download */
export const UpdateDownloadBody = z.object({
  id: Id,
  os: fields.os.optional(),
  arch: fields.arch.optional(),
  version: fields.version.optional(),
  url: fields.url.optional(),
  checksum: fields.checksum.optional(),
  note: fields.note.optional(),
  sort: fields.sort.optional(),
});
export type UpdateDownloadBody = z.infer<typeof UpdateDownloadBody>;

/** DELETE /super/download (body) */
export const DeleteDownloadBody = z.object({ id: Id });

/** A frpc build customers can download (GET /user/download lists them, newest version first). */
export interface DownloadRow {
  id: number;
  os: (typeof DownloadOses)[number];
  arch: (typeof DownloadArches)[number];
  version: string;
  url: string;
  /** SHA-256, lower-case hex */
  checksum: string;
  note: string;
  sort: number;
  /** built and hosted by the console (`npm run admin -- frp-mirror`); url is then its own link */
  mirrored: boolean;
  /** the file's size in bytes when known (mirrored builds), else null */
  size: number | null;
  created_at: string;
}

const OS_LABELS: Record<DownloadRow["os"], string> = {
  windows: "Windows",
  darwin: "macOS",
  linux: "Linux",
  freebsd: "FreeBSD",
  android: "Android",
};
const ARCH_LABELS: Record<DownloadRow["arch"], string> = {
  amd64: "x86-64",
  "386": "x86 (32 位)",
  arm64: "ARM64",
  arm: "ARMv7",
  mips: "MIPS",
  mipsle: "MIPS (小端)",
  mips64: "MIPS64",
  mips64le: "MIPS64 (小端)",
  riscv64: "RISC-V 64",
  loong64: "LoongArch64",
};

/** A platform as customers name it: "Linux ARMv7", "macOS Apple 芯片" (the contract's "arm" is armv7). */
export function downloadPlatformLabel(os: DownloadRow["os"], arch: DownloadRow["arch"]): string {
  if (os === "darwin" && arch === "arm64") return "macOS Apple 芯片";
  if (os === "darwin" && arch === "amd64") return "macOS Intel 芯片";
  return `${OS_LABELS[os] ?? os} ${ARCH_LABELS[arch] ?? arch}`;
}
