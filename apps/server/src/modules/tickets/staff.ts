/** Staff's side of tickets: the queue, a ticket with its customer, replies and closing. */
import {
  AdminOrderQuery,
  type AdminTicketDetail,
  type AdminTicketListQuery,
  type AdminTicketRow,
  AdminTunnelListQuery,
  type Paged,
  SubscriptionQuery,
  TicketStatus,
} from "@burrow/contract";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { notFound, refused } from "../../shared/errors";
import { recordEvent } from "../../shared/outbox";
import { countRows, DEEP_OFFSET, pageOf } from "../../shared/paging";
import { extend } from "../../shared/rows";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { listOrders } from "../orders/orders.service";
import { listMySubscriptions } from "../subscriptions/lists";
import { getAdminTunnel, listAdminTunnels } from "../tunnels/tunnels.service";
import { shownPhone } from "../users/users.presenter";
import { findUserByUid, shownPhonesOf, userFilter } from "../users/users.repository";
import { presentRow, preview } from "./tickets.presenter";
import { addMessage, findTicket, messagesOf } from "./tickets.repository";
import type { TicketRowDb } from "./tickets.table";

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
  const ticket = await findTicket(ctx.db, id);
  if (!ticket) throw notFound("工单");
  const status = body.status ?? TicketStatus.AwaitingUser;
  const now = nowIso();
  await transact(ctx, async (trx) => {
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
    const reply = await addMessage(trx, id, { uid: op.uid, staff: true }, body.content, body.attachments ?? [], now);
    // The customer's notice, after the commit: one per staff reply.
    await recordEvent(
      trx,
      "ticket.replied",
      { uid: ticket.uid, ticket_id: id, reply_id: reply, title: ticket.title },
      { key: `ticket.replied:${reply}` },
    );
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
