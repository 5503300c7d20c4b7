import { RiSendPlaneLine } from "@remixicon/react";
import { Alert, Button, Card, Col, Empty, Input, Row, Space, Spin, Typography } from "antd";
import { PageContainer } from "@/components/PageContainer";
import { ChatBubble } from "../components/ChatBubble";
import { ConversationList } from "../components/ConversationList";
import { useAssistantChat } from "../hooks/useAssistantChat";

/** /aipage: a chat that helps the customer get frpc running, and reads pasted frpc logs. */
export function AssistantPage() {
  const chat = useAssistantChat();
  const { status, detail, selected, messages, offline, pending, error, configured, remaining, draft, setDraft } = chat;

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
        {chat.showConversations ? (
          <Col xs={24} lg={7} xl={6}>
            <ConversationList
              conversations={chat.list.data ?? []}
              loading={chat.list.isLoading}
              selected={selected}
              canStart={configured}
              onNew={chat.startNew}
              onOpen={chat.open}
              onRemove={chat.remove}
            />
          </Col>
        ) : null}
        <Col xs={24} lg={chat.showConversations ? 17 : 24} xl={chat.showConversations ? 18 : 24}>
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
              <div ref={chat.bottomRef} />
            </Space>
            <div className="assistant-input">
              <Input.TextArea
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onPressEnter={(e) => {
                  if (e.ctrlKey || e.metaKey) {
                    e.preventDefault();
                    void chat.send();
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
                  onClick={() => void chat.send()}
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
