import fs from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Tx } from "../../shared/tx";

/* The tickets module's part of a customer's data export and of an account's erasure (docs/leaving.md). */

/** What an erased ticket's text reads. */
const ERASED = "（用户已注销，内容已删除）";

/** The customer's tickets with every message (staff replies without the staff member's uid), for the export. */
export async function ticketsDataOf(db: Kysely<DB>, uid: number) {
  const tickets = await db
    .selectFrom("tickets")
    .select(["id", "title", "category", "status", "tun_id", "created_at", "closed_at"])
    .where("uid", "=", uid)
    .orderBy("id")
    .execute();
  const messages = tickets.length
    ? await db
        .selectFrom("ticket_messages")
        .select(["ticket_id", "staff", "content", "created_at"])
        .where(
          "ticket_id",
          "in",
          tickets.map((t) => t.id),
        )
        .orderBy("id")
        .execute()
    : [];
  return tickets.map((t) => ({
    ...t,
    messages: messages
      .filter((m) => m.ticket_id === t.id)
      .map((m) => ({ from: m.staff ? "staff" : "customer", content: m.content, created_at: m.created_at })),
  }));
}

/**
 * Erases the text of the account's tickets (titles, messages, staff replies in them: they quote
 * the customer) and their attachments' rows, in the erasure's transaction; the tickets stay as
 * counted rows. Returns the attachment files for {@link removeTicketFiles} after the commit.
 */
export async function eraseTicketsOf(trx: Tx, uid: number): Promise<string[]> {
  const ids = (await trx.selectFrom("tickets").select("id").where("uid", "=", uid).execute()).map((t) => t.id);
  await trx.updateTable("tickets").set({ title: ERASED, last_reply: "" }).where("uid", "=", uid).execute();
  if (ids.length)
    await trx.updateTable("ticket_messages").set({ content: ERASED }).where("ticket_id", "in", ids).execute();
  const gone = await trx.deleteFrom("ticket_attachments").where("uid", "=", uid).returning("file").execute();
  return gone.map((g) => g.file);
}

/** Removes erased attachments' files (names are ours: anything with a path in it is left alone). */
export async function removeTicketFiles(ctx: AppContext, files: string[]): Promise<void> {
  const dir = path.resolve(ctx.config.DATA_DIR, "uploads", "tickets");
  for (const file of files) {
    if (path.basename(file) !== file) continue;
    await fs.rm(path.join(dir, file), { force: true });
  }
}
