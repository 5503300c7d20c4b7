import { createHash, timingSafeEqual } from "node:crypto";
import {
  type NoticeChannel,
  type NoticeEmailBody,
  type NoticeEventSpec,
  NoticeEvents,
  NoticeEventTypes,
  type NoticeListQuery,
  type NoticePrefBody,
  type NoticeSettings,
  type NoticeView,
  noticeChannelsOf,
  OutboxEventTypeLabel,
  type Paged,
  Role,
} from "@burrow/contract";
import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import { invalid, notFound, rateLimited, refused } from "../../shared/errors";
import { randomDigits } from "../../shared/ids";
import { countRows, pageOf } from "../../shared/paging";
import { hasPhone } from "../users/users.presenter";
import { findUserAccess, findUserByUid } from "../users/users.repository";
import { mailAvailable, mailRefusal, NO_SMTP_REASON, sendMail } from "./mail";
import { channelsFrom } from "./notices.repository";
import type { NoticeTable } from "./notices.table";

const present = (r: Selectable<NoticeTable>): NoticeView => ({
  id: r.id,
  type: r.type,
  label: (NoticeEvents as Record<string, NoticeEventSpec>)[r.type]?.label ?? OutboxEventTypeLabel[r.type] ?? r.type,
  title: r.title,
  body: r.body,
  link: r.link,
  read: r.read_at !== null,
  created_at: r.created_at,
});

export async function listNotices(ctx: AppContext, uid: number, q: NoticeListQuery): Promise<Paged<NoticeView>> {
  let base = ctx.db.selectFrom("notices").where("uid", "=", uid);
  if (q.unread === "1") base = base.where("read_at", "is", null);
  return pageOf(
    q.page,
    q.size,
    async (limit, offset) =>
      (await base.selectAll().orderBy("id", "desc").limit(limit).offset(offset).execute()).map(present),
    () => countRows(base),
  );
}

export async function unreadCount(ctx: AppContext, uid: number): Promise<{ count: number }> {
  return { count: await countRows(ctx.db.selectFrom("notices").where("uid", "=", uid).where("read_at", "is", null)) };
}

export async function markRead(ctx: AppContext, uid: number, id: number): Promise<NoticeView> {
  // Only the first read keeps its time: reading again changes nothing.
  await ctx.db
    .updateTable("notices")
    .set({ read_at: new Date().toISOString() })
    .where("id", "=", id)
    .where("uid", "=", uid)
    .where("read_at", "is", null)
    .execute();
  const row = await ctx.db
    .selectFrom("notices")
    .selectAll()
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (!row) throw notFound("通知");
  return present(row);
}

export async function markAllRead(ctx: AppContext, uid: number): Promise<{ count: number }> {
  const r = await ctx.db
    .updateTable("notices")
    .set({ read_at: new Date().toISOString() })
    .where("uid", "=", uid)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return { count: Number(r.numUpdatedRows) };
}

/** The event types a person is told of: customers' own, and the operator events for Managers. */
async function typesFor(ctx: AppContext, uid: number) {
  const access = await findUserAccess(ctx.db, uid);
  const staff = access?.role === Role.Manager;
  return NoticeEventTypes.filter((t) => staff || (NoticeEvents[t] as NoticeEventSpec).audience === "customer");
}

export async function noticeSettings(ctx: AppContext, uid: number): Promise<NoticeSettings> {
  const [types, prefs, email, user] = await Promise.all([
    typesFor(ctx, uid),
    ctx.db.selectFrom("notice_prefs").select(["type", "channels"]).where("uid", "=", uid).execute(),
    ctx.db.selectFrom("notice_emails").select(["email", "verified_at"]).where("uid", "=", uid).executeTakeFirst(),
    findUserByUid(ctx.db, uid),
  ]);
  const stored = new Map(prefs.map((p) => [p.type, p.channels]));
  const canMail = mailAvailable(ctx);
  const phone = !!user && hasPhone(user.phone);
  return {
    events: types.map((type) => {
      const spec: NoticeEventSpec = NoticeEvents[type];
      return {
        type,
        label: spec.label,
        urgent: spec.urgent,
        allowed: [...noticeChannelsOf(type)],
        channels: channelsFrom(type, stored.get(type)),
      };
    }),
    email: {
      address: email?.email ?? null,
      verified: !!email?.verified_at,
      available: canMail,
      reason: !canMail ? NO_SMTP_REASON : email?.verified_at ? null : "请先设置并验证通知邮箱",
    },
    sms: { available: phone, reason: phone ? null : "账号未绑定手机号" },
  };
}

export async function setNoticePref(ctx: AppContext, uid: number, body: NoticePrefBody): Promise<NoticeSettings> {
  if (!(await typesFor(ctx, uid)).includes(body.type)) throw invalid("type", "没有这种通知");
  const allowed = noticeChannelsOf(body.type);
  const bad = body.channels.find((c) => !allowed.includes(c));
  if (bad) throw invalid("channels", `「${NoticeEvents[body.type].label}」不能通过短信通知：短信只用于紧急通知`);
  const channels = [...new Set(body.channels.filter((c): c is NoticeChannel => c !== "site"))].join(",");
  const updated_at = new Date().toISOString();
  await ctx.db
    .insertInto("notice_prefs")
    .values({ uid, type: body.type, channels, updated_at })
    .onConflict((oc) => oc.columns(["uid", "type"]).doUpdateSet({ channels, updated_at }))
    .execute();
  return noticeSettings(ctx, uid);
}

const CODE_TTL_MS = 10 * 60_000;
const CODE_ATTEMPTS = 5;
const codeHash = (uid: number, code: string) => createHash("sha256").update(`${uid}:${code}`).digest("hex");

/** Sets the notice address (unverified) and mails it a code; one a minute, ten a day per person. */
export async function setNoticeEmail(ctx: AppContext, uid: number, body: NoticeEmailBody): Promise<NoticeSettings> {
  if (!mailAvailable(ctx)) throw refused(NO_SMTP_REASON);
  const limits = [
    [`notice-mail:1m:${uid}`, 1, 60],
    [`notice-mail:day:${uid}`, 10, 86_400],
  ] as const;
  const taken: string[] = [];
  for (const [key, limit, window] of limits) {
    const r = await ctx.limiter.hit(key, limit, window);
    taken.push(key);
    if (!r.allowed) throw rateLimited(r.retryAfterSec);
  }
  const code = randomDigits(6);
  // Sent before anything is stored: a send the SMTP server refuses leaves the address in force
  // (a verified one stays verified) and gives back the allowance it took, since nothing was sent.
  try {
    await sendMail(
      ctx,
      body.email,
      "【Burrow】通知邮箱验证码",
      `您的验证码是 ${code}，10 分钟内有效。\n如果这不是您本人的操作，请忽略本邮件。`,
    );
  } catch (err) {
    for (const key of taken) await ctx.limiter.undo(key);
    ctx.log.warn({ err, uid }, "notices: the e-mail code was not sent");
    throw mailRefusal(err);
  }
  const now = new Date();
  const row = {
    email: body.email,
    verified_at: null,
    code_hash: codeHash(uid, code),
    code_expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
    code_attempts: 0,
    updated_at: now.toISOString(),
  };
  await ctx.db
    .insertInto("notice_emails")
    .values({ uid, ...row })
    .onConflict((oc) => oc.column("uid").doUpdateSet(row))
    .execute();
  return noticeSettings(ctx, uid);
}

export async function verifyNoticeEmail(ctx: AppContext, uid: number, code: string): Promise<NoticeSettings> {
  const row = await ctx.db.selectFrom("notice_emails").selectAll().where("uid", "=", uid).executeTakeFirst();
  if (!row?.code_hash || !row.code_expires_at || row.code_expires_at < new Date().toISOString())
    throw invalid("code", "验证码已过期，请重新获取");
  // Each guess takes an attempt first, in one conditional statement: concurrent guesses cannot
  // all read the same count and get more than CODE_ATTEMPTS compared between them.
  const taken = await ctx.db
    .updateTable("notice_emails")
    .set((eb) => ({ code_attempts: eb("code_attempts", "+", 1) }))
    .where("uid", "=", uid)
    .where("code_hash", "=", row.code_hash)
    .where("code_attempts", "<", CODE_ATTEMPTS)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) throw invalid("code", "验证码错误次数过多，请重新获取");
  const ok = timingSafeEqual(Buffer.from(row.code_hash, "hex"), Buffer.from(codeHash(uid, code), "hex"));
  if (!ok) throw invalid("code", "验证码错误");
  const done = await ctx.db
    .updateTable("notice_emails")
    .set({ verified_at: new Date().toISOString(), code_hash: null, code_expires_at: null, code_attempts: 0 })
    .where("uid", "=", uid)
    .where("code_hash", "=", row.code_hash)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0) throw invalid("code", "验证码已过期，请重新获取");
  return noticeSettings(ctx, uid);
}
