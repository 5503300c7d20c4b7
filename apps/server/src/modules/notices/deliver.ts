import { type NoticeEventSpec, NoticeEvents, type NoticeEventType, NoticeEventTypes } from "@burrow/contract";
import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import { type DomainEventOf, defineEventHandler } from "../../shared/outbox";
import { hasPhone } from "../users/users.presenter";
import { activeManagerUids, findUserByUid } from "../users/users.repository";
import { mailAvailable, NO_SMTP_REASON, sendMail } from "./mail";
import { messageOf } from "./messages";
import { channelsOf, verifiedEmailOf } from "./notices.repository";
import type { NoticeDeliveryTable } from "./notices.table";

/** Status notices (tunnels, nodes) wait this long: a "down" that comes back within it sends nothing. */
export const NOTICE_DEBOUNCE_MS = 2 * 60_000;
/** A claimed delivery is another sender's for this long (a sender that dies leaves it to the next). */
const CLAIM_MS = 5 * 60_000;
/** A failed send is retried after 30 s, doubling, at most an hour apart; after this many it is given up. */
const MAX_ATTEMPTS = 6;
const SENDS_PER_RUN = 200;

type Delivery = Selectable<NoticeDeliveryTable>;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every notice event (the contract's catalogue) becomes one delivery row per recipient and channel,
 * then the due ones are sent at once; the debounced ones (tunnel and node status) are left to the sender job.
 * At least once: the rows are unique per (event, person, channel), so a second run adds nothing,
 * and a row is marked sent only after its send.
 */
export const noticesHandler = defineEventHandler({
  name: "notices.deliver",
  types: NoticeEventTypes,
  async handle(ctx, event) {
    await enqueueNotice(ctx, event);
    await sendDueNotices(ctx, new Date(), event.id);
  },
});

async function enqueueNotice(ctx: AppContext, event: DomainEventOf<NoticeEventType>): Promise<void> {
  const spec: NoticeEventSpec = NoticeEvents[event.type];
  const msg = messageOf(event);
  const uids = spec.audience === "staff" ? await activeManagerUids(ctx.db) : customersOf(event);
  const channels = await channelsOf(ctx.db, uids, event.type);
  const at = new Date(event.created_at).getTime();
  const due = iso(msg.subject ? at + NOTICE_DEBOUNCE_MS : at);
  const rows = uids.flatMap((uid) =>
    (channels.get(uid) ?? ["site"]).map((channel) => ({
      event_id: event.id,
      uid,
      type: event.type,
      channel,
      subject: msg.subject,
      event_at: event.created_at,
      due_at: due,
      status: "pending",
      attempts: 0,
      title: msg.title,
      body: msg.body,
      link: msg.link,
    })),
  );
  if (!rows.length) return;
  await ctx.db
    .insertInto("notice_deliveries")
    .values(rows)
    .onConflict((oc) => oc.columns(["event_id", "uid", "channel"]).doNothing())
    .execute();
}

/** The customers an event concerns: its uid, or the `uids` it lists (a maintenance window's). */
function customersOf(event: DomainEventOf<NoticeEventType>): number[] {
  if (event.uid !== null) return [event.uid];
  const listed = (event.payload as { uids?: unknown }).uids;
  return Array.isArray(listed) ? [...new Set(listed.filter((u): u is number => typeof u === "number"))] : [];
}

/**
 * Sends the deliveries due at `now` (of one event, when given): the sender job's run and the
 * handler's immediate send. `now` is a parameter so that tests move the clock past the debounce.
 */
export async function sendDueNotices(ctx: AppContext, now: Date, eventId?: number): Promise<number> {
  let q = ctx.db
    .selectFrom("notice_deliveries")
    .selectAll()
    .where("status", "in", ["pending", "sending"])
    .where("due_at", "<=", now.toISOString());
  if (eventId !== undefined) q = q.where("event_id", "=", eventId);
  const due = await q.orderBy("due_at").orderBy("id").limit(SENDS_PER_RUN).execute();
  let sent = 0;
  for (const d of due) if (await sendOne(ctx, d, now)) sent++;
  return sent;
}

/** Claims one delivery (another sender may hold it), decides, sends; true when it was sent now. */
async function sendOne(ctx: AppContext, d: Delivery, now: Date): Promise<boolean> {
  const claimed = await ctx.db
    .updateTable("notice_deliveries")
    .set({ status: "sending", due_at: iso(now.getTime() + CLAIM_MS) })
    .where("id", "=", d.id)
    .where("status", "=", d.status)
    .where("due_at", "=", d.due_at)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  const finish = (status: string, last_error: string | null = null) =>
    ctx.db
      .updateTable("notice_deliveries")
      .set({ status, last_error, sent_at: status === "sent" ? now.toISOString() : null })
      .where("id", "=", d.id)
      .execute();

  const debounce = d.subject ? await debounced(ctx, d) : "send";
  if (debounce === "wait") {
    await ctx.db
      .updateTable("notice_deliveries")
      .set({ status: "pending", due_at: iso(now.getTime() + 15_000) })
      .where("id", "=", d.id)
      .execute();
    return false;
  }
  if (debounce === "cancel") {
    await finish("cancelled");
    return false;
  }
  try {
    const skipped = await deliver(ctx, d);
    await finish(skipped ? "skipped" : "sent", skipped);
    return !skipped;
  } catch (e) {
    const attempts = d.attempts + 1;
    const message = e instanceof Error ? e.message : String(e);
    ctx.log.warn({ delivery: d.id, channel: d.channel, err: message }, "notice delivery failed");
    await ctx.db
      .updateTable("notice_deliveries")
      .set({
        attempts,
        last_error: message.slice(0, 500),
        status: attempts >= MAX_ATTEMPTS ? "failed" : "pending",
        due_at: iso(now.getTime() + Math.min(3_600_000, 30_000 * 2 ** (attempts - 1))),
      })
      .where("id", "=", d.id)
      .execute();
    return false;
  }
}

/** Status pairs debounced per subject and person: the "down" type and its "up" (docs/notices.md). */
const DEBOUNCED: Record<string, { up: string } | { down: string }> = {
  "tunnel.offline": { up: "tunnel.online" },
  "tunnel.online": { down: "tunnel.offline" },
  "node.down": { up: "node.up" },
  "node.up": { down: "node.down" },
};

/**
 * Tunnel and node status, debounced per subject and person: a "down" is cancelled when the same
 * subject came back up within the debounce window after it; an "up" is sent only when the "down"
 * before it was sent (the person was told it went down), cancelled when that one was debounced.
 * Events are ordered by their outbox id (two in the same millisecond keep their order).
 */
async function debounced(ctx: AppContext, d: Delivery): Promise<"send" | "cancel" | "wait"> {
  const pair = DEBOUNCED[d.type];
  if (!pair) return "send";
  const same = ctx.db
    .selectFrom("notice_deliveries")
    .select(["status", "event_at"])
    .where("subject", "=", d.subject)
    .where("uid", "=", d.uid)
    .where("id", "!=", d.id);
  if ("up" in pair) {
    const until = iso(new Date(d.event_at).getTime() + NOTICE_DEBOUNCE_MS);
    const back = await same
      .where("type", "=", pair.up)
      .where("channel", "=", "site")
      .where("event_id", ">", d.event_id)
      .where("event_at", "<=", until)
      .executeTakeFirst();
    return back ? "cancel" : "send";
  }
  const before = await same
    .where("type", "=", pair.down)
    .where("channel", "=", d.channel)
    .where("event_id", "<", d.event_id)
    .orderBy("event_id", "desc")
    .executeTakeFirst();
  if (!before) return "cancel";
  if (before.status === "pending" || before.status === "sending") return "wait";
  return before.status === "sent" ? "send" : "cancel";
}

/** Sends on the delivery's channel; answers why it was skipped (no address), or null when sent. */
async function deliver(ctx: AppContext, d: Delivery): Promise<string | null> {
  if (d.channel === "site") {
    await ctx.db
      .insertInto("notices")
      .values({
        uid: d.uid,
        type: d.type,
        title: d.title,
        body: d.body,
        link: d.link,
        event_id: d.event_id,
        created_at: d.event_at,
      })
      .onConflict((oc) => oc.columns(["uid", "event_id"]).doNothing())
      .execute();
    return null;
  }
  if (d.channel === "email") {
    if (!mailAvailable(ctx)) return NO_SMTP_REASON;
    const to = await verifiedEmailOf(ctx.db, d.uid);
    if (!to) return "未设置或未验证通知邮箱";
    await sendMail(ctx, to, `【Burrow】${d.title}`, `${d.body}\n\n${linkOf(ctx, d.link)}`.trim());
    return null;
  }
  if (d.channel === "sms") {
    const user = await findUserByUid(ctx.db, d.uid);
    if (!user || !hasPhone(user.phone)) return "账号未绑定手机号";
    // SMS gateways send templates: the scene names this one, the text fills it.
    await ctx.sms.send(user.phone, d.title, "notice");
    return null;
  }
  return `未知的通知方式 ${d.channel}`;
}

const linkOf = (ctx: AppContext, link: string | null) =>
  link && ctx.config.PUBLIC_URL ? `查看：${new URL(link, ctx.config.PUBLIC_URL).toString()}` : "";

/** Drops notices and delivery rows older than 90 days (the retention docs/notices.md states). */
export const NOTICE_RETENTION_DAYS = 90;
export async function pruneNotices(ctx: AppContext, now = new Date()): Promise<void> {
  const before = iso(now.getTime() - NOTICE_RETENTION_DAYS * 86_400_000);
  await ctx.db.deleteFrom("notices").where("created_at", "<", before).execute();
  await ctx.db.deleteFrom("notice_deliveries").where("event_at", "<", before).execute();
}
