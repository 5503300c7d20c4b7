import type { AssistantMessage, LogExplanation } from "@burrow/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import { feedback } from "@/lib/feedback";
import {
  askAssistant,
  assistantKeys,
  assistantStatusQuery,
  conversationQuery,
  conversationsQuery,
  deleteConversation,
  explainLog,
} from "../assistant.api";

/** The exchange in flight: the question sent, the answer as it streams in. */
interface Pending {
  question: string;
  explanations: LogExplanation[];
  answer: string;
}

/** Offline readings of pasted logs (no AI endpoint configured); kept on this page only. */
interface OfflineReading {
  key: number;
  text: string;
  explanations: LogExplanation[];
}

/** The assistant page's state: the conversations, the one open, the exchange streaming in, offline log readings. */
export function useAssistantChat() {
  const qc = useQueryClient();
  const status = useQuery(assistantStatusQuery());
  const list = useQuery(conversationsQuery());
  const [selected, setSelected] = useState<number | null>(null);
  const detail = useQuery({ ...conversationQuery(selected ?? 0), enabled: selected !== null });
  const [draft, setDraft] = useState("");
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [offline, setOffline] = useState<OfflineReading[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const bottomRef = useRef<HTMLDivElement>(null);
  const configured = status.data?.configured ?? false;
  const remaining = status.data ? Math.max(0, status.data.daily_limit - status.data.used_today) : 0;

  // Leaving the page stops the answer being streamed.
  useEffect(() => () => abortRef.current?.abort(), []);
  // Follow the newest text.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answer's growth is the trigger
  useEffect(() => {
    bottomRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [pending?.answer, detail.data?.messages.length, offline.length, error]);

  const startNew = () => {
    if (pending) return;
    setSelected(null);
    setError(null);
  };

  const open = (id: number) => {
    if (pending) return;
    setSelected(id);
    setError(null);
  };

  const remove = async (id: number) => {
    await deleteConversation(id);
    feedback.success("对话已删除");
    if (selected === id) startNew();
    qc.removeQueries({ queryKey: assistantKeys.detail(id) });
    await qc.invalidateQueries({ queryKey: assistantKeys.list() });
  };

  const sendOffline = async (text: string) => {
    setError(null);
    try {
      const explanations = await explainLog(text);
      setOffline((o) => [...o, { key: Date.now(), text, explanations }]);
      setDraft("");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "网络错误");
    }
  };

  const send = async () => {
    const text = draft.trim();
    if (!text || pending) return;
    if (!configured) return sendOffline(text);
    const abort = new AbortController();
    abortRef.current = abort;
    setError(null);
    setPending({ question: text, explanations: [], answer: "" });
    setDraft("");
    let conversationId: number | null = null;
    try {
      await askAssistant(
        { content: text, ...(selected && { conversation_id: selected }) },
        (e) => {
          if (e.type === "start") {
            conversationId = e.conversation.id;
            setPending((p) => p && { ...p, explanations: e.question.explanations });
            // The conversation exists from here on: list it beside the answer being written.
            void qc.invalidateQueries({ queryKey: assistantKeys.list() });
          } else if (e.type === "delta") setPending((p) => p && { ...p, answer: p.answer + e.text });
          else if (e.type === "error") setError(e.msg);
        },
        abort.signal,
      );
    } catch (err) {
      if (abort.signal.aborted) return;
      setError(err instanceof ApiError ? err.message : "网络错误");
      // Refused before anything was stored: the question goes back into the box.
      if (!conversationId) setDraft(text);
    }
    if (abort.signal.aborted) return;
    if (conversationId) {
      // The stored exchange takes the streamed one's place once it is read back.
      await qc.fetchQuery({ ...conversationQuery(conversationId), staleTime: 0 }).catch(() => undefined);
      setSelected(conversationId);
    }
    setPending(null);
    void qc.invalidateQueries({ queryKey: assistantKeys.list() });
    void qc.invalidateQueries({ queryKey: assistantKeys.status() });
  };

  const messages: AssistantMessage[] = selected !== null ? (detail.data?.messages ?? []) : [];
  // Without an AI endpoint nothing is kept as a conversation (log readings stay on this page): the
  // list, empty, would say "还没有对话" beside a finished reading. It shows when there is one to keep.
  const showConversations = !status.data || configured || (list.data?.length ?? 0) > 0;

  return {
    status,
    list,
    selected,
    detail,
    draft,
    setDraft,
    pending,
    error,
    offline,
    bottomRef,
    configured,
    remaining,
    messages,
    showConversations,
    startNew,
    open,
    remove,
    send,
  };
}
