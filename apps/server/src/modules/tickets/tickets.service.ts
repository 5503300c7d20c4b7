import {
  type AdminTicketDetail,
  type CreateTicketBody,
  type Paged,
  type TicketDetail,
  type TicketListQuery,
  type TicketRow,
  TicketStatus,
  TunnelStatus,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { notFound, refused } from "../../shared/errors";
import type { Figure } from "../../shared/figures";
import { lockUser } from "../../shared/locks";
import { pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { adminUpdateTunnel } from "../tunnels/tunnels.admin";
import { findOwnTunnel } from "../tunnels/tunnels.repository";
import { getAdminTunnel } from "../tunnels/tunnels.service";
import { staffClose } from "./staff";
import { presentRow, preview } from "./tickets.presenter";
import { addMessage, findTicket, messagesOf } from "./tickets.repository";
import type { TicketRowDb } from "./tickets.table";

/** Open (not ended) tickets a customer may have at once. */
export const MAX_OPEN_TICKETS = 10;

async function ownTicket(ctx: AppContext, uid: number, id: number): Promise<TicketRowDb> {
  const t = await findTicket(ctx.db, id);
  // Someone else's ticket answers exactly like a missing one.
  if (!t || t.uid !== uid) throw notFound("工单");
  return t;
}

async function userDetail(ctx: AppContext, t: TicketRowDb): Promise<TicketDetail> {
  return { ...presentRow(t), messages: await messagesOf(ctx.db, t.id) };
}

/** GET /user/ticket: the latest activity first. */
export function listMyTickets(ctx: AppContext, uid: number, q: TicketListQuery): Promise<Paged<TicketRow>> {
  let sel = ctx.db.selectFrom("tickets").where("uid", "=", uid);
  if (q.status) sel = sel.where("status", "=", q.status);
  return pageOfQuery(q, sel, (s) => s.selectAll().orderBy("last_reply_at", "desc").orderBy("id", "desc"), presentRow);
}

/**
 * Opens a ticket (status 2). An appeal names one of the caller's locked tunnels, one open appeal per
 * tunnel. Both caps are checked under the customer's lock in the transaction that inserts, so
 * concurrent requests count each other's tickets (PostgreSQL let 30 at once open 26 of 10); the
 * partial unique index tickets_open_appeal backs the one-appeal rule in the database.
 */
export async function createTicket(
  ctx: AppContext,
  uid: number,
  body: CreateTicketBody,
  /** a caller's own rule, checked under the same lock before the insert (the ban appeal's one-open rule) */
  guard?: (trx: Kysely<DB>) => Promise<void>,
): Promise<TicketDetail> {
  const attachments = body.attachments ?? [];
  const now = nowIso();
  const id = await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    await guard?.(trx);
    if (body.category === "appeal" && body.tun_id) {
      const tun = await findOwnTunnel(trx, uid, body.tun_id);
      if (!tun || tun.status === TunnelStatus.Deleted) throw notFound("隧道");
      if (tun.status !== TunnelStatus.Locked) throw refused("只有被锁定的隧道可以申诉");
      const open = await trx
        .selectFrom("tickets")
        .select("id")
        .where("tun_id", "=", body.tun_id)
        .where("category", "=", "appeal")
        .where("status", "<>", TicketStatus.Ended)
        .executeTakeFirst();
      if (open) throw refused(`该隧道已有处理中的申诉（工单 #${open.id}）`);
    }
    const open = await trx
      .selectFrom("tickets")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .where("status", "<>", TicketStatus.Ended)
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= MAX_OPEN_TICKETS) throw refused(`最多同时有 ${MAX_OPEN_TICKETS} 个未结束的工单`);
    const t = await trx
      .insertInto("tickets")
      .values({
        uid,
        title: body.title,
        category: body.category,
        status: TicketStatus.AwaitingReply,
        tun_id: body.category === "appeal" ? (body.tun_id ?? null) : null,
        user_unread: 0,
        last_reply: preview(body.content),
        last_reply_staff: 0,
        last_reply_at: now,
        created_at: now,
        closed_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await addMessage(trx, t.id, { uid, staff: false }, body.content, attachments, now);
    return t.id;
  });
  return userDetail(ctx, await ownTicket(ctx, uid, id));
}

/** One of the caller's tickets; reading it marks the staff replies read. */
export async function getMyTicket(ctx: AppContext, uid: number, id: number): Promise<TicketDetail> {
  const t = await ownTicket(ctx, uid, id);
  if (t.user_unread > 0) {
    await ctx.db.updateTable("tickets").set({ user_unread: 0 }).where("id", "=", id).execute();
    t.user_unread = 0;
  }
  return userDetail(ctx, t);
}

/** The customer's reply: allowed while the ticket is open; 3 (awaiting the customer) → 2. */
export async function replyMyTicket(
  ctx: AppContext,
  uid: number,
  id: number,
  body: { content: string; attachments?: number[] },
): Promise<TicketDetail> {
  await ownTicket(ctx, uid, id);
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    // The status check and the change are one statement, so a reply racing a close cannot reopen it.
    const r = await trx
      .updateTable("tickets")
      .set({
        status: TicketStatus.AwaitingReply,
        last_reply: preview(body.content),
        last_reply_staff: 0,
        last_reply_at: now,
      })
      .where("id", "=", id)
      .where("status", "<>", TicketStatus.Ended)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("工单已结束，不能回复；如有需要请新建工单");
    await addMessage(trx, id, { uid, staff: false }, body.content, body.attachments ?? [], now);
  });
  return getMyTicket(ctx, uid, id);
}

/** The customer ends their ticket. */
export async function closeMyTicket(ctx: AppContext, uid: number, id: number): Promise<TicketDetail> {
  await ownTicket(ctx, uid, id);
  const r = await ctx.db
    .updateTable("tickets")
    .set({ status: TicketStatus.Ended, closed_at: nowIso() })
    .where("id", "=", id)
    .where("status", "<>", TicketStatus.Ended)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw refused("工单已结束");
  return getMyTicket(ctx, uid, id);
}

/** Staff replies the customer has not read, over all their tickets. */
export async function unreadCount(ctx: AppContext, uid: number): Promise<{ count: number }> {
  const r = await ctx.db
    .selectFrom("tickets")
    .select((eb) => eb.fn.sum<number>("user_unread").as("n"))
    .where("uid", "=", uid)
    .executeTakeFirst();
  return { count: Number(r?.n ?? 0) };
}

/**
 * Grants an appeal: the tunnels module unlocks the tunnel (its own audit row, and the
 * "tunnel.changed" event that drops the frp decision cache, so the next NewProxy is allowed),
 * then the ticket ends with a note to the customer.
 */
export async function unlockFromTicket(
  ctx: AppContext,
  op: Operator,
  id: number,
  note: string,
): Promise<AdminTicketDetail> {
  const t = await findTicket(ctx.db, id);
  if (!t) throw notFound("工单");
  if (t.category !== "appeal" || !t.tun_id) throw refused("只有隧道申诉工单可以解锁隧道");
  const tun = await getAdminTunnel(ctx, t.tun_id);
  if (tun.status !== TunnelStatus.Locked) throw refused("该隧道当前未被锁定");
  await adminUpdateTunnel(ctx, op, { tun_id: t.tun_id, status: TunnelStatus.Offline });
  const text = note || `隧道 ${tun.tun_name} 已解锁，现在可以重新连接。`;
  return staffClose(ctx, op, id, text, "ticket.unlock", false);
}

/** Tickets waiting for a staff reply: the overview's "waiting for an operator" counter. */
export function ticketsAwaitingStaff(db: Kysely<DB>): Figure {
  return db
    .selectFrom("tickets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", TicketStatus.AwaitingReply);
}
