import {
  BAN_APPEAL_RETRY_HOURS,
  type BanAppealBody,
  type BanAppealView,
  type TicketReplyBody,
  TicketStatus,
  UserStatus,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound, refused } from "../../shared/errors";
import { findUserByUid } from "../users/users.repository";
import { createTicket, getMyTicket, replyMyTicket } from "./tickets.service";
import type { TicketRowDb } from "./tickets.table";

// A banned account's appeal against its ban: a ticket of category "appeal" without a tunnel, which
// staff handle in the queue like any other. The customer reaches it with the appeal session that
// signing in to a banned account gives (scope "appeal", docs/security.md); these endpoints are the
// only ones that session can call, and they only ever touch that one ticket.

const TITLE = "账号封禁申诉";
const HOUR = 3600_000;

/** The account, which must be banned: an appeal is about the ban. */
export async function bannedAccount(db: Kysely<DB>, uid: number) {
  const user = await findUserByUid(db, uid);
  if (!user || user.status !== UserStatus.Banned) throw refused("账号未被封禁，无需申诉");
  return user;
}

/** The account's latest ban appeal (the open one, when there is one: at most one is ever open). */
const latestAppeal = (db: Kysely<DB>, uid: number): Promise<TicketRowDb | undefined> =>
  db
    .selectFrom("tickets")
    .selectAll()
    .where("uid", "=", uid)
    .where("category", "=", "appeal")
    .where("tun_id", "is", null)
    .orderBy("id", "desc")
    .executeTakeFirst();

/** Whether a new appeal may be opened after `last`: none open, and the last ended long enough ago. */
function openability(last: TicketRowDb | undefined, now = Date.now()) {
  if (!last) return { can_open: true, next_open_at: null };
  if (last.status !== TicketStatus.Ended) return { can_open: false, next_open_at: null };
  const next = Date.parse(last.closed_at ?? last.last_reply_at) + BAN_APPEAL_RETRY_HOURS * HOUR;
  return next <= now
    ? { can_open: true, next_open_at: null }
    : { can_open: false, next_open_at: new Date(next).toISOString() };
}

/** GET /user/appeal: the ban's reason and the appeal (reading it marks staff replies read). */
export async function getBanAppeal(ctx: AppContext, uid: number): Promise<BanAppealView> {
  const user = await bannedAccount(ctx.db, uid);
  const last = await latestAppeal(ctx.db, uid);
  return {
    ban_reason: user.ban_reason,
    ticket: last ? await getMyTicket(ctx, uid, last.id) : null,
    ...openability(last),
  };
}

/**
 * POST /user/appeal: opens the account's appeal. One open at a time and a new one only
 * BAN_APPEAL_RETRY_HOURS after the last ended, both checked under the customer's lock in the
 * transaction that inserts, so concurrent requests open one.
 */
export async function openBanAppeal(ctx: AppContext, uid: number, body: BanAppealBody): Promise<BanAppealView> {
  await bannedAccount(ctx.db, uid);
  await createTicket(ctx, uid, { title: TITLE, category: "appeal", ...body }, async (trx) => {
    await bannedAccount(trx, uid);
    const o = openability(await latestAppeal(trx, uid));
    if (o.next_open_at) throw refused("上一次申诉刚结束，请稍后再提交新的申诉");
    if (!o.can_open) throw refused("已有处理中的申诉，请在申诉中补充说明");
  });
  return getBanAppeal(ctx, uid);
}

/** POST /user/appeal/reply: a message on the open appeal. */
export async function replyBanAppeal(ctx: AppContext, uid: number, body: TicketReplyBody): Promise<BanAppealView> {
  await bannedAccount(ctx.db, uid);
  const last = await latestAppeal(ctx.db, uid);
  if (!last || last.status === TicketStatus.Ended) throw refused("没有处理中的申诉");
  await replyMyTicket(ctx, uid, last.id, body);
  return getBanAppeal(ctx, uid);
}

/** An image the account uploaded and has not sent yet, or one on its ban appeal; anything else 404. */
export async function assertAppealAttachment(db: Kysely<DB>, uid: number, id: number): Promise<void> {
  const row = await db
    .selectFrom("ticket_attachments")
    .leftJoin("tickets", "tickets.id", "ticket_attachments.ticket_id")
    .select([
      "ticket_attachments.uid",
      "ticket_attachments.ticket_id",
      "tickets.uid as owner",
      "tickets.category",
      "tickets.tun_id",
    ])
    .where("ticket_attachments.id", "=", id)
    .executeTakeFirst();
  const ok =
    row &&
    (row.ticket_id === null ? row.uid === uid : row.owner === uid && row.category === "appeal" && row.tun_id === null);
  if (!ok) throw notFound("附件");
}
