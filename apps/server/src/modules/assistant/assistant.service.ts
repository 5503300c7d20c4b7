import {
  type AssistantChatBody,
  type AssistantConversationDetail,
  type AssistantConversationRow,
  type AssistantMessage,
  type AssistantStatus,
  type AssistantStreamEvent,
  explainFrpcLog,
  type LogExplanation,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound, refused } from "../../shared/errors";
import { nowIso, shanghaiDate } from "../../shared/time";
import type { AssistantMessageRow } from "./assistant.table";
import { customerFacts, redactSecrets } from "./facts";
import { relevantSections } from "./knowledge";
import { type ChatMessage, type ChatProvider, ProviderError, streamChat } from "./provider";

/** Earlier messages of a conversation sent along with a question. */
const HISTORY = 12;
/** Conversations a customer keeps; the oldest beyond it are deleted. */
export const MAX_CONVERSATIONS = 100;

/** The configured provider, or undefined: then only the offline log explanations work. */
export function provider(ctx: AppContext): ChatProvider | undefined {
  const c = ctx.config;
  return c.AI_BASE_URL && c.AI_MODEL ? { baseUrl: c.AI_BASE_URL, apiKey: c.AI_API_KEY, model: c.AI_MODEL } : undefined;
}

export async function assistantStatus(ctx: AppContext, uid: number): Promise<AssistantStatus> {
  const row = await ctx.db
    .selectFrom("assistant_usage")
    .select("count")
    .where("uid", "=", uid)
    .where("day", "=", shanghaiDate())
    .executeTakeFirst();
  return { configured: !!provider(ctx), daily_limit: ctx.config.AI_DAILY_LIMIT, used_today: Number(row?.count ?? 0) };
}

const presentConversation = (c: { id: number; title: string; created_at: string; updated_at: string }) => ({
  id: c.id,
  title: c.title,
  created_at: c.created_at,
  updated_at: c.updated_at,
});

function presentMessage(m: AssistantMessageRow): AssistantMessage {
  let explanations: LogExplanation[] = [];
  try {
    explanations = JSON.parse(m.explanations);
  } catch {
    // a damaged row shows its text without explanations
  }
  return {
    id: m.id,
    role: m.role === "assistant" ? "assistant" : "user",
    content: m.content,
    explanations,
    created_at: m.created_at,
  };
}

export async function listConversations(ctx: AppContext, uid: number): Promise<AssistantConversationRow[]> {
  const rows = await ctx.db
    .selectFrom("assistant_conversations")
    .selectAll()
    .where("uid", "=", uid)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .limit(MAX_CONVERSATIONS)
    .execute();
  return rows.map(presentConversation);
}

const ownConversation = (db: Kysely<DB>, uid: number, id: number) =>
  db.selectFrom("assistant_conversations").selectAll().where("id", "=", id).where("uid", "=", uid).executeTakeFirst();

export async function getConversation(ctx: AppContext, uid: number, id: number): Promise<AssistantConversationDetail> {
  const c = await ownConversation(ctx.db, uid, id);
  if (!c) throw notFound("对话");
  const messages = await ctx.db
    .selectFrom("assistant_messages")
    .selectAll()
    .where("conversation_id", "=", id)
    .orderBy("id")
    .execute();
  return { ...presentConversation(c), messages: messages.map(presentMessage) };
}

export async function deleteConversation(ctx: AppContext, uid: number, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom("assistant_conversations")
      .where("id", "=", id)
      .where("uid", "=", uid)
      .executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw notFound("对话");
    await trx.deleteFrom("assistant_messages").where("conversation_id", "=", id).execute();
  });
}

/**
 * Counts one question against today's limit, in one statement (an upsert that only increments
 * below the limit), so concurrent questions never pass it. False when the limit is reached.
 */
export async function takeDailyQuestion(db: Kysely<DB>, uid: number, limit: number, day = shanghaiDate()) {
  const row = await db
    .insertInto("assistant_usage")
    .values({ uid, day, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["uid", "day"])
        .doUpdateSet((eb) => ({ count: eb("assistant_usage.count", "+", 1) }))
        .where("assistant_usage.count", "<", limit),
    )
    .returning("count")
    .executeTakeFirst();
  return row !== undefined;
}

/** Gives a question back (it never reached the provider). */
async function returnDailyQuestion(db: Kysely<DB>, uid: number, day: string): Promise<void> {
  await db
    .updateTable("assistant_usage")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("uid", "=", uid)
    .where("day", "=", day)
    .where("count", ">", 0)
    .execute();
}

/** The system prompt: the rules, the customer's own facts, the fitting docs, the log reading. */
export function systemPrompt(
  brand: string,
  facts: string,
  docs: ReturnType<typeof relevantSections>,
  explanations: LogExplanation[],
): string {
  const parts = [
    `你是 ${brand} 的 frpc 助手，帮客户把 frpc 跑起来并排查问题。只根据下面的客户信息、使用文档和日志解读回答；不确定时直说，并建议提交工单（/help/ticket）。`,
    "提到控制台操作时写出页面路径（例如 /tun/list、/tun/node、/purchase/plan、/download），客户可以直接点开。",
    "不要索要或复述访问令牌、密码、密钥；提问里被替换成 [已隐藏] 的内容就是这类信息。用简体中文，简洁分步骤回答。",
    `## 客户信息（只属于正在提问的客户）\n${facts}`,
  ];
  if (docs.length)
    parts.push(`## 相关文档\n${docs.map((d) => `### ${d.page} · ${d.title}（${d.href}）\n${d.text}`).join("\n\n")}`);
  if (explanations.length)
    parts.push(
      `## 日志解读（规则表，已确认）\n${explanations.map((e) => `- 「${e.line}」：${e.title}。${e.cause}处理：${e.action}（${e.link.path}）`).join("\n")}`,
    );
  return parts.join("\n\n");
}

/** Everything sent to the provider for one question. */
export async function buildPrompt(
  ctx: AppContext,
  uid: number,
  conversationId: number,
  question: string,
  explanations: LogExplanation[],
): Promise<ChatMessage[]> {
  const [facts, history] = await Promise.all([
    customerFacts(ctx, uid),
    ctx.db
      .selectFrom("assistant_messages")
      .select(["role", "content"])
      .where("conversation_id", "=", conversationId)
      .where("uid", "=", uid)
      .orderBy("id", "desc")
      .limit(HISTORY + 1)
      .execute(),
  ]);
  // The newest row is this question itself.
  const earlier = history.slice(1).reverse();
  const clean = (s: string) => redactSecrets(s, facts.secrets);
  return [
    {
      role: "system",
      content: clean(systemPrompt(ctx.config.SITE_BRAND, facts.text, relevantSections(question), explanations)),
    },
    ...earlier.map(
      (m): ChatMessage => ({ role: m.role === "assistant" ? "assistant" : "user", content: clean(m.content) }),
    ),
    { role: "user", content: clean(question) },
  ];
}

/** Deletes a customer's conversations beyond the newest MAX_CONVERSATIONS (after one was added). */
export async function keepNewestConversations(trx: Kysely<DB>, uid: number): Promise<void> {
  const old = await trx
    .selectFrom("assistant_conversations")
    .select("id")
    .where("uid", "=", uid)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .offset(MAX_CONVERSATIONS)
    .limit(1000)
    .execute();
  if (!old.length) return;
  const ids = old.map((o) => o.id);
  await trx.deleteFrom("assistant_messages").where("conversation_id", "in", ids).execute();
  await trx.deleteFrom("assistant_conversations").where("id", "in", ids).execute();
}

/** Stores the question (in a new conversation when none is named) and answers the conversation. */
async function storeQuestion(
  ctx: AppContext,
  uid: number,
  conversationId: number | undefined,
  content: string,
  explanations: LogExplanation[],
) {
  const now = nowIso();
  return ctx.db.transaction().execute(async (trx) => {
    let conversation: AssistantConversationRow;
    if (conversationId) {
      const c = await ownConversation(trx, uid, conversationId);
      if (!c) throw notFound("对话");
      await trx.updateTable("assistant_conversations").set({ updated_at: now }).where("id", "=", c.id).execute();
      conversation = presentConversation({ ...c, updated_at: now });
    } else {
      const title = content.replace(/\s+/g, " ").trim().slice(0, 40);
      const c = await trx
        .insertInto("assistant_conversations")
        .values({ uid, title, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      conversation = presentConversation(c);
      await keepNewestConversations(trx, uid);
    }
    const question = await trx
      .insertInto("assistant_messages")
      .values({
        conversation_id: conversation.id,
        uid,
        role: "user",
        content,
        explanations: JSON.stringify(explanations),
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { conversation, question: presentMessage(question) };
  });
}

/**
 * Where an answer streams to (the route writes it as Server-Sent Events). Opened only once the
 * refusals are past, so that those answer the usual envelope.
 */
export interface ChatSink {
  /** Starts the stream; the signal aborts when the customer disconnects. */
  open(): AbortSignal;
  /** One event (dropped once the customer is gone). */
  send(ev: AssistantStreamEvent): void;
  end(): void;
}

/**
 * Answers a question as a stream of events. Refusals (not configured, conversation not
 * mine, daily limit) happen before the stream and answer the usual envelope. The question is
 * counted before the slow call and given back only when it never reached the provider (a refused
 * connection, an unknown host): whatever the provider received may have been billed, and a failing
 * provider must not be a way round the daily limit. The customer sees a fixed text for a provider
 * error; the provider's own words (which may carry the key) go to the log, redacted.
 */
export async function chat(ctx: AppContext, uid: number, body: AssistantChatBody, sink: ChatSink): Promise<void> {
  const p = provider(ctx);
  if (!p) throw refused("AI 助手未配置：管理员还没有设置 AI 服务。粘贴 frpc 日志仍可离线解读。");
  if (body.conversation_id && !(await ownConversation(ctx.db, uid, body.conversation_id))) throw notFound("对话");
  const day = shanghaiDate();
  if (!(await takeDailyQuestion(ctx.db, uid, ctx.config.AI_DAILY_LIMIT, day)))
    throw refused(`今天的提问次数已用完（每天 ${ctx.config.AI_DAILY_LIMIT} 次），明天再来吧`);
  const content = body.content.trim();
  const explanations = explainFrpcLog(content);
  let stored: Awaited<ReturnType<typeof storeQuestion>>;
  let messages: ChatMessage[];
  try {
    stored = await storeQuestion(ctx, uid, body.conversation_id, content, explanations);
    messages = await buildPrompt(ctx, uid, stored.conversation.id, content, explanations);
  } catch (err) {
    await returnDailyQuestion(ctx.db, uid, day);
    throw err;
  }

  const disconnected = sink.open();
  const send = (ev: AssistantStreamEvent) => sink.send(ev);
  send({ type: "start", ...stored });

  let answer = "";
  let failure: string | undefined;
  let neverSent = false;
  try {
    const signal = AbortSignal.any([disconnected, AbortSignal.timeout(ctx.config.AI_TIMEOUT * 1000)]);
    for await (const piece of streamChat(p, messages, signal)) {
      answer += piece;
      send({ type: "delta", text: piece });
    }
  } catch (err) {
    if (err instanceof ProviderError) {
      failure = err.message;
      neverSent = !err.reached;
    } else if ((err as Error).name === "TimeoutError") failure = "AI 服务回答超时";
    else if (disconnected.aborted) failure = "连接已断开";
    else {
      ctx.log.error({ err }, "assistant: answer failed");
      failure = "回答失败，请稍后再试";
    }
    if (!disconnected.aborted)
      ctx.log.warn(
        { uid, reason: failure, ...(err instanceof ProviderError && { detail: err.detail }) },
        "assistant: provider failed",
      );
  }
  // Not given back for a customer who drops the connection either: the prompt was sent all the same.
  if (neverSent) await returnDailyQuestion(ctx.db, uid, day);
  else if (!answer && !failure) answer = "（AI 服务没有给出回答）";
  if (answer) {
    const saved = await ctx.db
      .insertInto("assistant_messages")
      .values({
        conversation_id: stored.conversation.id,
        uid,
        role: "assistant",
        content: failure ? `${answer}\n\n（回答中断：${failure}）` : answer,
        explanations: "[]",
        created_at: nowIso(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!failure) send({ type: "done", answer: presentMessage(saved) });
  }
  if (failure) send({ type: "error", msg: failure });
  sink.end();
}
