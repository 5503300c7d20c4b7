import { AssistantApi, type AssistantChatBody, type AssistantStreamEvent } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const assistantKeys = {
  all: ["assistant"] as const,
  status: () => [...assistantKeys.all, "status"] as const,
  list: () => [...assistantKeys.all, "list"] as const,
  detail: (id: number) => [...assistantKeys.all, "detail", id] as const,
};

/** GET /user/assistant/status */
export const assistantStatusQuery = () =>
  queryOptions({
    queryKey: assistantKeys.status(),
    queryFn: ({ signal }) => api.call(AssistantApi.getUserAssistantStatus, {}, { signal }),
  });

/** GET /user/assistant/conversation */
export const conversationsQuery = () =>
  queryOptions({
    queryKey: assistantKeys.list(),
    queryFn: ({ signal }) => api.call(AssistantApi.getUserAssistantConversation, {}, { signal }),
  });

/** GET /user/assistant/conversation/:id */
export const conversationQuery = (id: number) =>
  queryOptions({
    queryKey: assistantKeys.detail(id),
    queryFn: ({ signal }) => api.call(AssistantApi.getUserAssistantConversationDetail, { params: { id } }, { signal }),
  });

export const deleteConversation = (id: number) =>
  api.call(AssistantApi.deleteUserAssistantConversation, { params: { id } });

/** POST /user/assistant/explain: the offline rule table */
export const explainLog = (text: string) => api.call(AssistantApi.postUserAssistantExplain, { body: { text } });

/** POST /user/assistant/chat: the answer arrives event by event. */
export const askAssistant = (
  body: AssistantChatBody,
  onEvent: (e: AssistantStreamEvent) => void,
  signal?: AbortSignal,
): Promise<void> => api.stream(AssistantApi.postUserAssistantChat, { body }, onEvent, { signal });
