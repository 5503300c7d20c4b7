import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../../context";
import type { FileDownload } from "../../shared/download";
import { invalid, notFound, rateLimited } from "../../shared/errors";
import { TOO_LARGE, type UploadReader } from "../../shared/upload";

const MAX_BYTES = 2 * 1024 * 1024;

/** Detects the image type from its first bytes; the client's content type is not trusted. */
export function sniffImage(buf: Buffer): string | null {
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "jpg";
  if (buf.subarray(0, 4).toString("ascii") === "RIFF" && buf.subarray(8, 12).toString("ascii") === "WEBP")
    return "webp";
  if (buf.subarray(0, 6).toString("ascii") === "GIF87a" || buf.subarray(0, 6).toString("ascii") === "GIF89a")
    return "gif";
  return null;
}

const avatarDir = (ctx: AppContext) => path.resolve(ctx.config.DATA_DIR, "uploads", "avatars");

/** Uploads one customer may make an hour: each writes up to 2 MB where the database lives too. */
const UPLOADS_PER_HOUR = 10;

/**
 * Stores an uploaded avatar under DATA_DIR/uploads/avatars and returns its public URL. One file
 * per customer: the earlier ones are removed, and uploads are limited per hour (counted before
 * the body is read), so that no one can fill the disk.
 */
export async function saveAvatar(ctx: AppContext, upload: UploadReader, uid: number): Promise<string> {
  if (!upload.isMultipart) throw invalid("file", "请上传图片文件");
  const limit = await ctx.limiter.hit(`avatar:${uid}`, UPLOADS_PER_HOUR, 3600);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSec);
  const buf = await upload.file({ fileSize: MAX_BYTES, files: 1 });
  if (!buf) throw invalid("file", "请上传图片文件");
  if (buf === TOO_LARGE) throw invalid("file", "图片不能超过 2 MB");
  const ext = sniffImage(buf);
  if (!ext) throw invalid("file", "仅支持 png、jpg、webp、gif 图片");
  const name = `${uid}-${randomBytes(8).toString("hex")}.${ext}`;
  await fs.mkdir(avatarDir(ctx), { recursive: true });
  await fs.writeFile(path.join(avatarDir(ctx), name), buf);
  await removeAvatarFiles(ctx, uid, name);
  return `/api/uploads/avatars/${name}`;
}

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif" };

/** A stored avatar (public: avatars are shown to operators and in the top bar). */
export async function readAvatar(ctx: AppContext, file: string): Promise<FileDownload> {
  if (!/^\d+-[0-9a-f]{16}\.(png|jpg|webp|gif)$/.test(file)) throw notFound("文件");
  const data = await fs.readFile(path.join(avatarDir(ctx), file)).catch(() => null);
  if (!data) throw notFound("文件");
  const type = MIME[file.split(".").pop() ?? ""] ?? "application/octet-stream";
  // The name changes with every upload, so the file may be cached for good.
  return { body: data, name: file, type, disposition: "inline", cache: "immutable" };
}

/**
 * Removes the account's avatar files but `keep` (a new upload replacing the others; the erasure,
 * after its commit, keeps none). Files are named `<uid>-<random>.<ext>`, so another account's
 * never match.
 */
export async function removeAvatarFiles(ctx: AppContext, uid: number, keep?: string): Promise<void> {
  const names = await fs.readdir(avatarDir(ctx)).catch(() => [] as string[]);
  for (const name of names)
    if (name !== keep && name.startsWith(`${uid}-`)) await fs.rm(path.join(avatarDir(ctx), name), { force: true });
}
