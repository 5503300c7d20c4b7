import {
  AdminOrderQuery,
  type AdminTicketDetail,
  type AdminTicketListQuery,
  type AdminTicketRow,
  AdminTunnelListQuery,
  type CreateTicketBody,
  type Paged,
  SubscriptionQuery,
  type TicketAttachmentView,
  type TicketCategory,
  type TicketDetail,
  type TicketListQuery,
  type TicketMessageView,
  type TicketRow,
  TicketStatus,
  TunnelStatus,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import { invalid, notFound, refused } from "../../shared/errors";
import type { Figure } from "../../shared/figures";
import { lockUser } from "../../shared/locks";
import { countRows, DEEP_OFFSET, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import { listOrders } from "../orders/orders.service";
import { listMySubscriptions } from "../subscriptions/lists";
import { findOwnTunnel } from "../tunnels/tunnels.repository";
import { adminUpdateTunnel, getAdminTunnel, listAdminTunnels } from "../tunnels/tunnels.service";
import { shownPhone } from "../users/users.presenter";
import { findUserByUid, shownPhonesOf, userFilter } from "../users/users.repository";
import type { TicketRowDb } from "./tickets.table";

/** Open (not ended) tickets a customer may have at once. */
export const MAX_OPEN_TICKETS = 10;

const preview = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 80);

function presentRow(r: TicketRowDb): TicketRow {
  return {
    ticket_id: r.id,
    title: r.title,
    category: r.category as TicketCategory,
    status: r.status,
    tun_id: r.tun_id,
    unread: Number(r.user_unread),
    last_reply: r.last_reply,
    last_reply_staff: r.last_reply_staff === 1,
    last_reply_at: r.last_reply_at,
    created_at: r.created_at,
  };
}

async function messagesOf(db: Kysely<DB>, ticketId: number): Promise<TicketMessageView[]> {
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
async function addMessage(
  trx: Kysely<DB>,
  ticketId: number,
  author: { uid: number; staff: boolean },
  content: string,
  attachments: number[],
  at: string,
): Promise<void> {
  const msg = await trx
    .insertInto("ticket_messages")
    .values({ ticket_id: ticketId, uid: author.uid, staff: author.staff ? 1 : 0, content, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (!attachments.length) return;
  const r = await trx
    .updateTable("ticket_attachments")
    .set({ ticket_id: ticketId, message_id: msg.id })
    .where("id", "in", attachments)
    .where("uid", "=", author.uid)
    .where("ticket_id", "is", null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== attachments.length) throw invalid("attachments", "图片不存在或已使用，请重新上传");
}

const findTicket = (db: Kysely<DB>, id: number) =>
  db.selectFrom("tickets").selectAll().where("id", "=", id).executeTakeFirst();

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
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (
        await sel
          .selectAll()
          .orderBy("last_reply_at", "desc")
          .orderBy("id", "desc")
          .limit(limit)
          .offset(offset)
          .execute()
      ).map(presentRow),
    () => countRows(sel),
  );
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

/** The staff queue's order: awaiting staff, awaiting the customer, ended. */
const STAFF_ORDER = [TicketStatus.AwaitingReply, TicketStatus.AwaitingUser, TicketStatus.Ended];

/** GET /super/ticket: awaiting staff first, then awaiting the customer, then ended; oldest first within each. */
export async function listTickets(ctx: AppContext, q: AdminTicketListQuery): Promise<Paged<AdminTicketRow>> {
  const uid = await userFilter(ctx.db, q);
  if (uid === null) return { list: [], total: 0, page: q.page, size: q.size };
  let sel = ctx.db.selectFrom("tickets");
  if (q.status) sel = sel.where("status", "=", q.status);
  if (q.category) sel = sel.where("category", "=", q.category);
  if (uid) sel = sel.where("uid", "=", uid);
  if (q.min_age_hours !== undefined)
    sel = sel.where("last_reply_at", "<=", new Date(Date.now() - q.min_age_hours * 3600_000).toISOString());
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) => {
      const page = (status: number, l: number, o: number) =>
        sel
          .where("status", "=", status)
          .selectAll()
          .orderBy("last_reply_at", "asc")
          .orderBy("id", "asc")
          .limit(l)
          .offset(o)
          .execute();
      let rows: TicketRowDb[] = [];
      if (q.status) rows = await page(q.status, limit, offset);
      else {
        // The statuses in the list's order, each read through tickets_status (status, last_reply_at)
        // from its own offset: one ORDER BY over all statuses sorted every ticket for one page.
        let skip = offset;
        for (const status of STAFF_ORDER) {
          if (rows.length === limit) break;
          if (skip > 0) {
            // Exact in the first DEEP_OFFSET rows (a memoized count could skip or repeat tickets).
            const n = await countRows(sel.where("status", "=", status), offset >= DEEP_OFFSET ? ctx.db : undefined);
            if (skip >= n) {
              skip -= n;
              continue;
            }
          }
          rows = rows.concat(await page(status, limit - rows.length, skip));
          skip = 0;
        }
      }
      // The page's owners in one read (a read per row cost a round trip each on PostgreSQL).
      const phones = await shownPhonesOf(
        ctx.db,
        rows.map((r) => r.uid),
      );
      return rows.map((r) => extend(presentRow(r), { uid: r.uid, phone: phones.get(r.uid) ?? "" }));
    },
    () => countRows(sel, ctx.db),
  );
}

/** A ticket for staff, with the customer's plan, tunnels and recent orders read through their owners. */
export async function getTicket(ctx: AppContext, id: number): Promise<AdminTicketDetail> {
  const t = await findTicket(ctx.db, id);
  if (!t) throw notFound("工单");
  const [user, messages, subs, tunnels, orders, tunnel] = await Promise.all([
    findUserByUid(ctx.db, t.uid),
    messagesOf(ctx.db, t.id),
    listMySubscriptions(ctx, t.uid, SubscriptionQuery.parse({ size: 1 })),
    listAdminTunnels(ctx, AdminTunnelListQuery.parse({ uid: t.uid, size: 10 })),
    listOrders(ctx, AdminOrderQuery.parse({ user_id: t.uid, size: 5 })),
    t.tun_id ? getAdminTunnel(ctx, t.tun_id).catch(() => null) : Promise.resolve(null),
  ]);
  return {
    ...presentRow(t),
    uid: t.uid,
    phone: shownPhone(user?.phone),
    messages,
    tunnel,
    customer: {
      uid: t.uid,
      phone: shownPhone(user?.phone),
      nickname: user?.nickname ?? "",
      status: user?.status ?? 0,
      plan: subs.limits,
      tunnels: tunnels.list,
      tunnel_total: tunnels.total,
      orders: orders.list,
    },
  };
}

/** A staff reply, leaving the ticket in the status staff chose (3 asks the customer for more, 1 ends it). */
export async function staffReply(
  ctx: AppContext,
  op: Operator,
  id: number,
  body: { content: string; attachments?: number[]; status?: 1 | 2 | 3 },
): Promise<AdminTicketDetail> {
  if (!(await findTicket(ctx.db, id))) throw notFound("工单");
  const status = body.status ?? TicketStatus.AwaitingUser;
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("tickets")
      .set((eb) => ({
        status,
        user_unread: eb("user_unread", "+", 1),
        last_reply: preview(body.content),
        last_reply_staff: 1,
        last_reply_at: now,
        ...(status === TicketStatus.Ended && { closed_at: now }),
      }))
      .where("id", "=", id)
      .where("status", "<>", TicketStatus.Ended)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("工单已结束");
    await addMessage(trx, id, { uid: op.uid, staff: true }, body.content, body.attachments ?? [], now);
    await audit(trx, {
      operatorUid: op.uid,
      action: "ticket.reply",
      target: `ticket:${id}`,
      detail: { status },
      ip: op.ip,
    });
  });
  return getTicket(ctx, id);
}

/** Staff end a ticket (status 1); a note, when given, is a staff message the customer sees. */
export async function staffClose(
  ctx: AppContext,
  op: Operator,
  id: number,
  note: string,
  action = "ticket.close",
  requireOpen = true,
): Promise<AdminTicketDetail> {
  if (!(await findTicket(ctx.db, id))) throw notFound("工单");
  const now = nowIso();
  await ctx.db.transaction().execute(async (trx) => {
    let upd = trx
      .updateTable("tickets")
      .set((eb) => ({
        status: TicketStatus.Ended,
        closed_at: now,
        ...(note && {
          user_unread: eb("user_unread", "+", 1),
          last_reply: preview(note),
          last_reply_staff: 1,
          last_reply_at: now,
        }),
      }))
      .where("id", "=", id);
    if (requireOpen) upd = upd.where("status", "<>", TicketStatus.Ended);
    const r = await upd.executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refused("工单已结束");
    if (note) await addMessage(trx, id, { uid: op.uid, staff: true }, note, [], now);
    await audit(trx, { operatorUid: op.uid, action, target: `ticket:${id}`, detail: { note }, ip: op.ip });
  });
  return getTicket(ctx, id);
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
