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
  created_at: string;
}
