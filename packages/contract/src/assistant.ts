import { z } from "zod";
import type { LogExplanation } from "./frpc-log";
import { Id } from "./nodes";

export * from "./frpc-log";

/** The longest question (pasted logs included) the assistant takes. */
export const ASSISTANT_MAX_CHARS = 8000;

/** POST /user/assistant/chat: a question, in a conversation of mine or (no id) a new one. */
export const AssistantChatBody = z.object({
  conversation_id: Id.optional(),
  content: z.string().trim().min(1, "请输入问题").max(ASSISTANT_MAX_CHARS, `最多 ${ASSISTANT_MAX_CHARS} 字`),
});
export type AssistantChatBody = z.input<typeof AssistantChatBody>;

/** POST /user/assistant/explain: frpc log lines to explain offline. */
export const AssistantExplainBody = z.object({
  text: z.string().trim().min(1, "请粘贴 frpc 日志").max(ASSISTANT_MAX_CHARS, `最多 ${ASSISTANT_MAX_CHARS} 字`),
});
export type AssistantExplainBody = z.input<typeof AssistantExplainBody>;

export const AssistantConversationParams = z.object({ id: z.coerce.number().int().min(1) });

/** GET /user/assistant/status */
export interface AssistantStatus {
  /** an AI endpoint is configured (else only the offline log explanations work) */
  configured: boolean;
  /** questions a customer may ask per day (Asia/Shanghai) */
  daily_limit: number;
  /** asked today */
  used_today: number;
}

export interface AssistantConversationRow {
  id: number;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface AssistantMessage {
  id: number;
  role: "user" | "assistant";
  content: string;
  /** the offline rule table's reading of the log lines in a question */
  explanations: LogExplanation[];
  created_at: string;
}

/** GET /user/assistant/conversation/:id */
export interface AssistantConversationDetail extends AssistantConversationRow {
  messages: AssistantMessage[];
}

/**
 * The events of the chat stream (Server-Sent Events, `event: <type>` + `data: <json>`):
 * `start` once (the conversation and the stored question), `delta` per piece of the answer,
 * then `done` (the stored answer) or `error` (the answer stopped; what arrived is kept).
 */
export type AssistantStreamEvent =
  | { type: "start"; conversation: AssistantConversationRow; question: AssistantMessage }
  | { type: "delta"; text: string }
  | { type: "done"; answer: AssistantMessage }
  | { type: "error"; msg: string };
