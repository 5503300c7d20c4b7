/** Ticket queries and the message write that customers' and staff's paths share. */
import type { TicketAttachmentView, TicketMessageView } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { invalid } from "../../shared/errors";

/** A ticket's messages, oldest first, each with its attachments. */
export async function messagesOf(db: Kysely<DB>, ticketId: number): Promise<TicketMessageView[]> {
  const [msgs, files] = await Promise.all([
    db.selectFrom("ticket_messages").selectAll().where("ticket_id", "=", ticketId).orderBy("id").execute(),
    db
      .selectFrom("ticket_attachments")
      .select(["id", "message_id", "mime", "size"])
      .where("ticket_id", "=", ticketId)
      .orderBy("id")
      .execute(),
  ]);
  const byMsg = new Map<number, TicketAttachmentView[]>();
  for (const f of files) {
    if (f.message_id === null) continue;
    const list = byMsg.get(f.message_id) ?? [];
    list.push({ id: f.id, mime: f.mime, size: Number(f.size) });
    byMsg.set(f.message_id, list);
  }
  return msgs.map((m) => ({
    id: m.id,
    staff: m.staff === 1,
    content: m.content,
    attachments: byMsg.get(m.id) ?? [],
    created_at: m.created_at,
  }));
}

/**
 * Adds a message and attaches the author's pending uploads to it. The claim is one conditional
 * UPDATE: an upload already used (or someone else's) does not match, and the whole write rolls back.
 */
export async function addMessage(
  trx: Kysely<DB>,
  ticketId: number,
  author: { uid: number; staff: boolean },
  content: string,
  attachments: number[],
  at: string,
): Promise<number> {
  const msg = await trx
    .insertInto("ticket_messages")
    .values({ ticket_id: ticketId, uid: author.uid, staff: author.staff ? 1 : 0, content, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (!attachments.length) return msg.id;
  const r = await trx
    .updateTable("ticket_attachments")
    .set({ ticket_id: ticketId, message_id: msg.id })
    .where("id", "in", attachments)
    .where("uid", "=", author.uid)
    .where("ticket_id", "is", null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== attachments.length) throw invalid("attachments", "图片不存在或已使用，请重新上传");
  return msg.id;
}

export const findTicket = (db: Kysely<DB>, id: number) =>
  db.selectFrom("tickets").selectAll().where("id", "=", id).executeTakeFirst();
