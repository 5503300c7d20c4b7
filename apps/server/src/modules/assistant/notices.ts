import type { AppContext } from "../../context";
import { lockUser } from "../../shared/locks";
import { defineEventHandler } from "../../shared/outbox";
import { shanghaiDate, shanghaiWallClock } from "../../shared/time";
import { GB } from "../subscriptions/default-plan";
import { keepNewestConversations } from "./assistant.service";

/** The title of the assistant's traffic notice (its conversation list shows it). */
export const QUOTA_NOTICE_TITLE = "流量提醒：本期流量已用 80%";

const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;

/**
 * When a customer's traffic crosses 80 % of their quota ("quota.80", recorded once per period by
 * the charge that crosses it), the frpc assistant — the customer's own conversation list in the
 * console — opens a conversation saying so and what to do before the tunnels stop.
 */
export const assistantQuotaNotice = defineEventHandler({
  name: "assistant.quota-notice",
  types: ["quota.80"],
  async handle(ctx, event) {
    const p = event.payload;
    const pct = Math.min(100, Math.floor((p.used / p.quota) * 100));
    const until = p.period_end ? `（本期至 ${shanghaiDate(new Date(p.period_end))}）` : "";
    await writeNotice(ctx, p.uid, QUOTA_NOTICE_TITLE, event.created_at, [
      `您的流量已使用 ${pct}%：已用 ${gb(p.used)}，共 ${gb(p.quota)}${until}。`,
      "流量用尽后，隧道将无法连接，直到续费或购买流量包。",
      "如需继续使用，请在「购买套餐」中购买流量包或升级套餐；在「流量统计」中可以查看是哪条隧道用得最多。",
    ]);
  },
});

/** The title of the assistant's notice of a sign-in from a new device. */
export const NEW_DEVICE_NOTICE_TITLE = "登录提醒：新设备登录";

/**
 * A sign-in from a device the account had not used ("auth.new_device"): the customer is told
 * where and when, and what to do if it was not them.
 */
export const assistantNewDeviceNotice = defineEventHandler({
  name: "assistant.new-device-notice",
  types: ["auth.new_device"],
  async handle(ctx, event) {
    const p = event.payload;
    await writeNotice(ctx, p.uid, NEW_DEVICE_NOTICE_TITLE, event.created_at, [
      `您的账号于 ${shanghaiWallClock(p.at).toISOString().slice(0, 16).replace("T", " ")}（北京时间）在新设备上登录：${p.device}，IP ${p.ip}。`,
      "如果这是您本人，无需处理。",
      "如果不是您本人，请立即在「个人中心」修改密码、在「登录设备」中退出其他设备，并启用两步验证。",
    ]);
  },
});

/**
 * Opens an assistant conversation holding one notice. Idempotent (handlers run at least once): the
 * conversation carries the event's time, and one with that title and time is not written twice
 * (checked under the customer's lock, so two dispatchers cannot both write it).
 */
async function writeNotice(ctx: AppContext, uid: number, title: string, at: string, paragraphs: string[]) {
  await ctx.db.transaction().execute(async (trx) => {
    await lockUser(trx, uid);
    const already = await trx
      .selectFrom("assistant_conversations")
      .select("id")
      .where("uid", "=", uid)
      .where("title", "=", title)
      .where("created_at", "=", at)
      .executeTakeFirst();
    if (already) return;
    const c = await trx
      .insertInto("assistant_conversations")
      .values({ uid, title, created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("assistant_messages")
      .values({
        conversation_id: c.id,
        uid,
        role: "assistant",
        content: paragraphs.join("\n\n"),
        explanations: "[]",
        created_at: at,
      })
      .execute();
    await keepNewestConversations(trx, uid);
  });
}
