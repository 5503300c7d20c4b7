import { lockUser } from "../../shared/locks";
import { defineEventHandler } from "../../shared/outbox";
import { shanghaiDate } from "../../shared/time";
import { GB } from "../subscriptions/default-plan";
import { keepNewestConversations } from "./assistant.service";

/** The title of the assistant's traffic notice (its conversation list shows it). */
export const QUOTA_NOTICE_TITLE = "流量提醒：本期流量已用 80%";

const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;

/**
 * When a customer's traffic crosses 80 % of their quota ("quota.80", recorded once per period by
 * the charge that crosses it), the frpc assistant — the customer's own conversation list in the
 * console — opens a conversation saying so and what to do before the tunnels stop. Idempotent:
 * the conversation carries the event's time, and one with that title and time is not written
 * twice (checked under the customer's lock, so two dispatchers cannot both write it).
 */
export const assistantQuotaNotice = defineEventHandler({
  name: "assistant.quota-notice",
  types: ["quota.80"],
  async handle(ctx, event) {
    const p = event.payload;
    await ctx.db.transaction().execute(async (trx) => {
      await lockUser(trx, p.uid);
      const already = await trx
        .selectFrom("assistant_conversations")
        .select("id")
        .where("uid", "=", p.uid)
        .where("title", "=", QUOTA_NOTICE_TITLE)
        .where("created_at", "=", event.created_at)
        .executeTakeFirst();
      if (already) return;
      const c = await trx
        .insertInto("assistant_conversations")
        .values({ uid: p.uid, title: QUOTA_NOTICE_TITLE, created_at: event.created_at, updated_at: event.created_at })
        .returning("id")
        .executeTakeFirstOrThrow();
      const pct = Math.min(100, Math.floor((p.used / p.quota) * 100));
      const until = p.period_end ? `（本期至 ${shanghaiDate(new Date(p.period_end))}）` : "";
      const content = [
        `您的流量已使用 ${pct}%：已用 ${gb(p.used)}，共 ${gb(p.quota)}${until}。`,
        "流量用尽后，隧道将无法连接，直到续费或购买流量包。",
        "如需继续使用，请在「购买套餐」中购买流量包或升级套餐；在「流量统计」中可以查看是哪条隧道用得最多。",
      ].join("\n\n");
      await trx
        .insertInto("assistant_messages")
        .values({
          conversation_id: c.id,
          uid: p.uid,
          role: "assistant",
          content,
          explanations: "[]",
          created_at: event.created_at,
        })
        .execute();
      await keepNewestConversations(trx, p.uid);
    });
  },
});
