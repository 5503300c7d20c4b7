import { z } from "zod";
import {
  AssistantConversationDetailAnswer,
  AssistantConversationRowAnswer,
  AssistantStatusAnswer,
  LogExplanationAnswer,
} from "../answers/assistant";
import {
  AssistantChatBody,
  type AssistantConversationDetail,
  AssistantConversationParams,
  type AssistantConversationRow,
  AssistantExplainBody,
  type AssistantStatus,
  type LogExplanation,
} from "../assistant";
import { endpoint } from "../endpoint";

/** The frpc assistant (/aipage, see endpoint.ts). */
export const AssistantApi = {
  getUserAssistantStatus: endpoint<AssistantStatus>()({
    method: "GET",
    url: "/user/assistant/status",
    access: "user",
    answer: AssistantStatusAnswer,
    summary: "whether an AI endpoint is configured, and my questions today against the daily limit",
  }),
  getUserAssistantConversation: endpoint<AssistantConversationRow[]>()({
    method: "GET",
    url: "/user/assistant/conversation",
    access: "user",
    answer: z.array(AssistantConversationRowAnswer),
    summary: "my conversations, the latest first (at most 100)",
  }),
  getUserAssistantConversationDetail: endpoint<AssistantConversationDetail>()({
    method: "GET",
    url: "/user/assistant/conversation/:id",
    access: "user",
    answer: AssistantConversationDetailAnswer,
    summary: "one of my conversations with its messages",
    params: AssistantConversationParams,
  }),
  deleteUserAssistantConversation: endpoint<null>()({
    method: "DELETE",
    url: "/user/assistant/conversation/:id",
    access: "user",
    answer: z.null(),
    summary: "deletes one of my conversations and its messages",
    params: AssistantConversationParams,
  }),
  postUserAssistantExplain: endpoint<LogExplanation[]>()({
    method: "POST",
    url: "/user/assistant/explain",
    access: "user",
    answer: z.array(LogExplanationAnswer),
    summary: "explains pasted frpc log lines from the offline rule table (works without an AI endpoint)",
    body: AssistantExplainBody,
  }),
  postUserAssistantChat: endpoint<null>()({
    method: "POST",
    url: "/user/assistant/chat",
    access: "user",
    summary:
      "asks the assistant: answers a Server-Sent Events stream (start, delta…, done | error); refusals before the stream are the usual envelope",
    body: AssistantChatBody,
    raw: "stream",
  }),
};
