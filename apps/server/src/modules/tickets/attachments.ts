import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  Role,
  TICKET_ATTACHMENT_MAX_BYTES,
  TICKET_STORAGE_QUOTA_BYTES,
  TICKET_UPLOADS_PER_HOUR,
  type TicketAttachmentView,
} from "@burrow/contract";
import { type Kysely, sql } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { diskHasRoom } from "../../shared/disk";
import type { FileDownload } from "../../shared/download";
import { invalid, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { nowIso } from "../../shared/time";
import { TOO_LARGE, type UploadReader } from "../../shared/upload";
import type { AuthUser } from "../auth/sessions";
import { sniffImage } from "../users/avatars";

/**
 * Uploads not yet attached to a message, per customer: bounds the disk an abandoned form can fill
 * (they are deleted after UNSENT_UPLOAD_HOURS, so the cap does not hold for ever).
 */
export const MAX_PENDING_UPLOADS = 10;

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif" };
const dirOf = (ctx: AppContext) => path.resolve(ctx.config.DATA_DIR, "uploads", "tickets");
const MB = 1024 * 1024;
const MAX_MB = TICKET_ATTACHMENT_MAX_BYTES / MB;
const HOUR = 3600_000;
const NO_ROOM = "服务器存储空间不足，暂时不能上传图片，请稍后再试";

/**
 * Refuses an upload of `size` bytes that would pass one of the customer's limits: images not yet
 * attached, images in the last hour, all their images' bytes (attached or not). Authoritative only
 * under lockUser: the same customer's uploads then wait for each other's row.
 */
async function checkUploadLimits(db: Kysely<DB>, uid: number, size: number): Promise<void> {
  const since = new Date(Date.now() - HOUR).toISOString();
  const r = await db
    .selectFrom("ticket_attachments")
    .select([
      sql<number>`coalesce(sum(case when ticket_id is null then 1 else 0 end), 0)`.as("pending"),
      sql<number>`coalesce(sum(case when created_at >= ${since} then 1 else 0 end), 0)`.as("recent"),
      sql<string | null>`min(case when created_at >= ${since} then created_at end)`.as("oldest_recent"),
      sql<number>`coalesce(sum(size), 0)`.as("bytes"),
    ])
    .where("uid", "=", uid)
    .executeTakeFirstOrThrow();
  if (Number(r.pending) >= MAX_PENDING_UPLOADS)
    throw refused(`未提交的图片过多（最多 ${MAX_PENDING_UPLOADS} 张），请先提交工单或稍后再试`);
  if (Number(r.recent) >= TICKET_UPLOADS_PER_HOUR) {
    // The wait until the hour's oldest upload leaves the window.
    const left = r.oldest_recent ? Date.parse(r.oldest_recent) + HOUR - Date.now() : HOUR;
    const minutes = Math.min(60, Math.max(1, Math.ceil(left / 60_000)));
    throw refused(`每小时最多上传 ${TICKET_UPLOADS_PER_HOUR} 张图片，请 ${minutes} 分钟后再试`);
  }
  if (Number(r.bytes) + size > TICKET_STORAGE_QUOTA_BYTES)
    throw refused(`工单图片已达每个账户 ${TICKET_STORAGE_QUOTA_BYTES / MB} MB 的上限，不能再上传；请用文字描述问题`);
}

/**
 * Stores an uploaded image under DATA_DIR/uploads/tickets. The type comes from the file's first
 * bytes, never from the client's content type or name; anything that is not an image is refused.
 * The row is inserted under the customer's lock once the limits pass, and only then is the file
 * written (removed again with the row if that fails): concurrent uploads never store past a limit.
 */
export async function saveAttachment(
  ctx: AppContext,
  upload: UploadReader,
  uid: number,
): Promise<TicketAttachmentView> {
  if (!upload.isMultipart) throw invalid("file", "请上传图片文件");
  const dir = dirOf(ctx);
  await fs.mkdir(dir, { recursive: true });
  // A first look before the upload is read, so a flood of refused uploads costs no memory.
  await checkUploadLimits(ctx.db, uid, 0);
  if (!(await diskHasRoom(ctx, dir, 0))) throw refused(NO_ROOM);
  const buf = await upload.file({ fileSize: TICKET_ATTACHMENT_MAX_BYTES, files: 1 });
  if (!buf) throw invalid("file", "请上传图片文件");
  if (buf === TOO_LARGE) throw invalid("file", `图片不能超过 ${MAX_MB} MB`);
  const ext = sniffImage(buf);
  if (!ext) throw invalid("file", "仅支持 png、jpg、webp、gif 图片");
  if (!(await diskHasRoom(ctx, dir, buf.length))) throw refused(NO_ROOM);
  const name = `${uid}-${randomBytes(12).toString("hex")}.${ext}`;
  const row = await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    await checkUploadLimits(trx, uid, buf.length);
    return trx
      .insertInto("ticket_attachments")
      .values({
        uid,
        ticket_id: null,
        message_id: null,
        file: name,
        mime: MIME[ext],
        size: buf.length,
        created_at: nowIso(),
      })
      .returning(["id", "mime", "size"])
      .executeTakeFirstOrThrow();
  });
  const full = path.join(dir, name);
  try {
    await fs.writeFile(full, buf);
  } catch (err) {
    await fs.rm(full, { force: true }).catch(() => undefined);
    await ctx.db.deleteFrom("ticket_attachments").where("id", "=", row.id).execute();
    if ((err as NodeJS.ErrnoException).code === "ENOSPC") {
      ctx.log.error({ err }, "tickets: the disk is full, upload refused");
      throw refused(NO_ROOM);
    }
    throw err;
  }
  return { id: row.id, mime: row.mime, size: Number(row.size) };
}

/**
 * An upload not sent in a message within this many hours is deleted (row and file), so that an
 * abandoned form does not count against the unsent cap and the storage quota for ever.
 */
export const UNSENT_UPLOAD_HOURS = 24;
const UNSENT_BATCH = 500;

/**
 * Deletes uploads never attached to a message that are older than UNSENT_UPLOAD_HOURS: the rows,
 * then their files. Each delete is conditional on the upload still being unsent, so one attached
 * by a reply meanwhile stays (no lock needed: a reply racing the delete either claims the row
 * first or is refused with 400 attachments, and no limit counts more than the rows there are).
 * @returns how many were deleted
 */
export async function deleteUnsentUploads(ctx: AppContext, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNSENT_UPLOAD_HOURS * HOUR).toISOString();
  let deleted = 0;
  for (;;) {
    const batch = await ctx.db
      .selectFrom("ticket_attachments")
      .select("id")
      .where("ticket_id", "is", null)
      .where("created_at", "<", cutoff)
      .orderBy("id")
      .limit(UNSENT_BATCH)
      .execute();
    if (!batch.length) break;
    const gone = await ctx.db
      .deleteFrom("ticket_attachments")
      .where(
        "id",
        "in",
        batch.map((r) => r.id),
      )
      .where("ticket_id", "is", null)
      .returning("file")
      .execute();
    for (const { file } of gone) {
      // Names are ours (saveAttachment); anything else is left alone rather than followed.
      if (path.basename(file) !== file) continue;
      await fs.rm(path.join(dirOf(ctx), file), { force: true }).catch((err) => {
        ctx.log.warn({ err, file }, "tickets: an unsent upload's file could not be removed");
      });
    }
    deleted += gone.length;
    if (batch.length < UNSENT_BATCH) break;
  }
  return deleted;
}

/**
 * Sends an attachment to its uploader, to the owner of the ticket it belongs to and to staff;
 * anyone else gets the same 404 as for an id that does not exist.
 */
export async function attachmentFile(ctx: AppContext, user: AuthUser, id: number): Promise<FileDownload> {
  const row = await ctx.db
    .selectFrom("ticket_attachments")
    .leftJoin("tickets", "tickets.id", "ticket_attachments.ticket_id")
    .select(["ticket_attachments.uid", "ticket_attachments.file", "ticket_attachments.mime", "tickets.uid as owner"])
    .where("ticket_attachments.id", "=", id)
    .executeTakeFirst();
  const staff = user.role >= Role.Support;
  const allowed = row && (row.uid === user.uid || row.owner === user.uid || (staff && row.owner !== null));
  if (!row || !allowed) throw notFound("附件");
  const data = await fs.readFile(path.join(dirOf(ctx), row.file)).catch(() => null);
  if (!data) throw notFound("附件");
  return { body: data, name: row.file, type: row.mime, disposition: "inline" };
}
