import { z } from "zod";
import { int, time } from "../answers";
import { FRPC_LOG_RULE_IDS, type FrpcLogRuleId } from "../frpc-log";

/** Answers of the assistant endpoints (issue 34 §2; see answers.ts). */

export const AssistantStatusAnswer = z.strictObject({
  configured: z.boolean().describe("an AI endpoint is configured"),
  daily_limit: int(),
  used_today: int(),
});

export const AssistantConversationRowAnswer = z.strictObject({
  id: int(),
  title: z.string(),
  created_at: time(),
  updated_at: time(),
});

export const LogExplanationAnswer = z.strictObject({
  // the rule ids are a plain readonly array there; z.enum needs them as a non-empty tuple
  rule: z.enum(FRPC_LOG_RULE_IDS as unknown as [FrpcLogRuleId, ...FrpcLogRuleId[]]),
  line: z.string(),
  title: z.string(),
  cause: z.string(),
  action: z.string(),
  link: z.strictObject({ label: z.string(), path: z.string().describe("a console route") }),
  tun_id: int().nullable(),
});

export const AssistantConversationDetailAnswer = AssistantConversationRowAnswer.extend({
  messages: z.array(
    z.strictObject({
      id: int(),
      role: z.enum(["user", "assistant"]),
      content: z.string(),
      explanations: z.array(LogExplanationAnswer),
      created_at: time(),
    }),
  ),
});
