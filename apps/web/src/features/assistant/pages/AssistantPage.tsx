import type { AssistantMessage, LogExplanation } from "@burrow/contract";
import { RiAddLine, RiDeleteBinLine, RiSendPlaneLine } from "@remixicon/react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Empty, Input, List, Popconfirm, Row, Space, Spin, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { ApiError } from "@/api/client";
import { PageContainer } from "@/components/PageContainer";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import {
  askAssistant,
  assistantKeys,
  assistantStatusQuery,
  conversationQuery,
  conversationsQuery,
  deleteConversation,
  explainLog,
} from "../assistant.api";
import { ChatBubble } from "../components/ChatBubble";

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

/** /aipage: a chat that helps the customer get frpc running, and reads pasted frpc logs. */
export function AssistantPage() {
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

  return (
    <PageContainer
      title="frpc 助手"
      description="问问 frpc 的安装和配置，或粘贴 frpc 日志，助手会告诉你原因和处理入口。"
    >
      {status.data && !configured ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="AI 助手未配置"
          description="管理员还没有设置 AI 服务，暂时不能对话。你仍然可以粘贴 frpc 日志，助手会离线解读并给出处理入口。"
        />
      ) : null}
      <Row gutter={[16, 16]}>
        {showConversations ? (
          <Col xs={24} lg={7} xl={6}>
            <Card
              title="对话"
              size="small"
              extra={
                <Button size="small" icon={<RiAddLine size={14} />} onClick={startNew} disabled={!configured}>
                  新对话
                </Button>
              }
            >
              <List
                size="small"
                loading={list.isLoading}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有对话" /> }}
                dataSource={list.data ?? []}
                renderItem={(c) => (
                  <List.Item
                    className={c.id === selected ? "assistant-conv assistant-conv-active" : "assistant-conv"}
                    data-testid="assistant-conversation"
                    actions={[
                      <Popconfirm
                        key="del"
                        title="删除这个对话？"
                        description="对话和其中的消息都会被删除。"
                        okText="删除"
                        cancelText="取消"
                        onConfirm={() => remove(c.id)}
                      >
                        <Button
                          type="text"
                          size="small"
                          danger
                          aria-label={`删除对话 ${c.title}`}
                          icon={<RiDeleteBinLine size={14} />}
                        />
                      </Popconfirm>,
                    ]}
                  >
                    <button type="button" className="assistant-conv-title" onClick={() => open(c.id)}>
                      <Typography.Text ellipsis>{c.title}</Typography.Text>
                      <Typography.Text type="secondary" className="assistant-conv-time">
                        {formatTime(c.updated_at)}
                      </Typography.Text>
                    </button>
                  </List.Item>
                )}
              />
            </Card>
          </Col>
        ) : null}
        <Col xs={24} lg={showConversations ? 17 : 24} xl={showConversations ? 18 : 24}>
          <Card size="small" className="assistant-chat">
            <Space orientation="vertical" size={12} style={{ width: "100%" }} className="assistant-thread">
              {selected !== null && detail.isLoading ? <Spin /> : null}
              {messages.map((m) => (
                <ChatBubble key={m.id} author={m.role} content={m.content} explanations={m.explanations} />
              ))}
              {offline.map((o) => (
                <Space key={o.key} orientation="vertical" size={12} style={{ width: "100%" }}>
                  <ChatBubble author="user" content={o.text} explanations={o.explanations} />
                  {o.explanations.length ? null : (
                    <Alert type="info" showIcon title="没有识别出 frpc 错误。AI 助手未配置，暂时只能解读 frpc 日志。" />
                  )}
                </Space>
              ))}
              {pending ? (
                <>
                  <ChatBubble author="user" content={pending.question} explanations={pending.explanations} />
                  <ChatBubble
                    author="assistant"
                    content={pending.answer}
                    footer={<Spin size="small" aria-label="正在回答" />}
                  />
                </>
              ) : null}
              {error ? <Alert type="error" showIcon title={error} data-testid="assistant-error" /> : null}
              {!messages.length && !offline.length && !pending && !(selected !== null && detail.isLoading) ? (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={
                    configured ? "例如：怎么在 Windows 上把 frpc 设为开机启动？" : "粘贴 frpc 日志，看看出了什么问题"
                  }
                />
              ) : null}
              <div ref={bottomRef} />
            </Space>
            <div className="assistant-input">
              <Input.TextArea
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onPressEnter={(e) => {
                  if (e.ctrlKey || e.metaKey) {
                    e.preventDefault();
                    void send();
                  }
                }}
                autoSize={{ minRows: 3, maxRows: 10 }}
                maxLength={8000}
                placeholder={
                  configured ? "输入问题，或粘贴 frpc 日志（Ctrl+Enter 发送）" : "粘贴 frpc 日志（Ctrl+Enter 解读）"
                }
                aria-label="提问"
              />
              <Space className="assistant-input-bar">
                {configured ? <Typography.Text type="secondary">今日剩余 {remaining} 次</Typography.Text> : null}
                <Button
                  type="primary"
                  icon={<RiSendPlaneLine size={16} />}
                  onClick={() => void send()}
                  loading={!!pending}
                  disabled={!draft.trim() || !status.data || (configured && remaining === 0)}
                >
                  {configured ? "发送" : "解读日志"}
                </Button>
              </Space>
            </div>
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
