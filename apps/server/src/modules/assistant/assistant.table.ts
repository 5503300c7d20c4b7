import type { Generated, Selectable } from "kysely";

/** A customer's conversation with the frpc assistant. */
export interface AssistantConversationTable {
  id: Generated<number>;
  uid: number;
  /** the first question, shortened */
  title: string;
  created_at: string;
  updated_at: string;
}

export interface AssistantMessageTable {
  id: Generated<number>;
  conversation_id: number;
  uid: number;
  /** "user" or "assistant" */
  role: string;
  content: string;
  /** JSON LogExplanation[]: the rule table's reading of the question's log lines */
  explanations: string;
  created_at: string;
}
export type AssistantMessageRow = Selectable<AssistantMessageTable>;

/** Questions asked per customer and Asia/Shanghai day (the daily limit). */
export interface AssistantUsageTable {
  uid: number;
  day: string;
  count: number;
}

export interface AssistantTables {
  assistant_conversations: AssistantConversationTable;
  assistant_messages: AssistantMessageTable;
  assistant_usage: AssistantUsageTable;
}
