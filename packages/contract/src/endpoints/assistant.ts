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
    summary: "whether an AI endpoint is configured, and my questions today against the daily limit",
  }),
  getUserAssistantConversation: endpoint<AssistantConversationRow[]>()({
    method: "GET",
    url: "/user/assistant/conversation",
    access: "user",
    summary: "my conversations, the latest first (at most 100)",
  }),
  getUserAssistantConversationDetail: endpoint<AssistantConversationDetail>()({
    method: "GET",
    url: "/user/assistant/conversation/:id",
    access: "user",
    summary: "one of my conversations with its messages",
    params: AssistantConversationParams,
  }),
  deleteUserAssistantConversation: endpoint<null>()({
    method: "DELETE",
    url: "/user/assistant/conversation/:id",
    access: "user",
    summary: "deletes one of my conversations and its messages",
    params: AssistantConversationParams,
  }),
  postUserAssistantExplain: endpoint<LogExplanation[]>()({
    method: "POST",
    url: "/user/assistant/explain",
    access: "user",
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
