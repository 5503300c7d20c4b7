import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { Role, TICKET_ATTACHMENT_MAX_BYTES, type TicketAttachmentView } from "@burrow/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { invalid, notFound, refused } from "../../http/errors";
import { nowIso } from "../../shared/time";
import type { AuthUser } from "../auth/sessions";
import { sniffImage } from "../users/avatars";

/** Uploads not yet attached to a message, per customer: bounds the disk an abandoned form can fill. */
export const MAX_PENDING_UPLOADS = 10;

const MIME: Record<string, string> = { png: "image/png", jpg: "image/jpeg", webp: "image/webp", gif: "image/gif" };
const dirOf = (ctx: AppContext) => path.resolve(ctx.config.DATA_DIR, "uploads", "tickets");
const MAX_MB = TICKET_ATTACHMENT_MAX_BYTES / 1024 / 1024;

/**
 * Stores an uploaded image under DATA_DIR/uploads/tickets. The type comes from the file's first
 * bytes, never from the client's content type or name; anything that is not an image is refused.
 */
export async function saveAttachment(ctx: AppContext, req: FastifyRequest, uid: number): Promise<TicketAttachmentView> {
  if (!req.isMultipart()) throw invalid("file", "请上传图片文件");
  // Counted before the upload is read, so a flood of uploads costs no disk.
  const pending = await ctx.db
    .selectFrom("ticket_attachments")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("uid", "=", uid)
    .where("ticket_id", "is", null)
    .executeTakeFirstOrThrow();
  if (Number(pending.n) >= MAX_PENDING_UPLOADS) throw refused("未提交的图片过多，请先提交工单或稍后再试");
  const file = await req.file({ limits: { fileSize: TICKET_ATTACHMENT_MAX_BYTES, files: 1 } });
  if (!file) throw invalid("file", "请上传图片文件");
  const buf = await file.toBuffer().catch(() => {
    throw invalid("file", `图片不能超过 ${MAX_MB} MB`);
  });
  if (file.file.truncated) throw invalid("file", `图片不能超过 ${MAX_MB} MB`);
  const ext = sniffImage(buf);
  if (!ext) throw invalid("file", "仅支持 png、jpg、webp、gif 图片");
  const name = `${uid}-${randomBytes(12).toString("hex")}.${ext}`;
  await fs.mkdir(dirOf(ctx), { recursive: true });
  await fs.writeFile(path.join(dirOf(ctx), name), buf);
  const row = await ctx.db
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
  return { id: row.id, mime: row.mime, size: Number(row.size) };
}

/**
 * Sends an attachment to its uploader, to the owner of the ticket it belongs to and to staff;
 * anyone else gets the same 404 as for an id that does not exist.
 */
export async function sendAttachment(ctx: AppContext, user: AuthUser, id: number, reply: FastifyReply) {
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
  return reply
    .header("content-type", row.mime)
    .header("content-disposition", `inline; filename="${row.file}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(data);
}
